import CCurl
import Foundation
import PiperCore
import PiperSystem

/// Loads a page over plain HTTP with libcurl: up to 10 redirects, the user's cookies sent only
/// to their domains (libcurl's cookie engine), gzip/brotli/zstd, a size cap, connect and total
/// timeouts and a desktop User-Agent. A media Content-Type stops the transfer at the headers.
/// `connectionGuard` (nil for the CLI's own shares) is the address policy of a server that
/// loads pages for its clients: every connection of every load is checked against it.
public struct HTTPPageLoader: PageLoader {
    package static let desktopUserAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"

    package var maxRedirects = 10
    package var maxBytes = 20_000_000
    package var connectTimeout: TimeInterval = 10
    package var totalTimeout: TimeInterval = 30
    package var userAgent = HTTPPageLoader.desktopUserAgent
    package var connectionGuard: CurlConnectionGuard?

    /// A loader with the defaults above; `piper serve` passes its fetch guard, the CLI none.
    public init(connectionGuard: CurlConnectionGuard? = nil) {
        self.connectionGuard = connectionGuard
    }

    /// The transfer a load of `url` asks libcurl for.
    func request(for url: URL, cookies: [Cookie]) -> CurlRequest {
        var request = CurlRequest(url: url)
        request.redirects = .follow(max: maxRedirects)
        request.decodesContent = true
        request.connectTimeout = connectTimeout
        request.totalTimeout = totalTimeout
        request.userAgent = userAgent
        request.headers = ["Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", "Accept-Language: en-US,en;q=0.9"]
        request.cookies = cookies.map(NetscapeCookies.line(for:))
        request.connectionGuard = connectionGuard
        return request
    }

    /// Fetches the page (following redirects, sending `cookies`), or throws a `LoadError` the
    /// share flow reports: unreachable, an HTTP status outside 2xx, or a body over `maxBytes`.
    public func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        try fetch(request(for: url, cookies: cookies), url: url, anyStatus: false)
    }

    /// A network's API answer for a post, whatever its status (the body of an error answer says
    /// why); JSON asked for, no cookies, the same redirects, limits and guard as a page.
    public func loadAnswer(_ url: URL) throws -> LoadedPage {
        var request = request(for: url, cookies: [])
        request.headers = ["Accept: application/json", "Accept-Language: en-US,en;q=0.9"]
        return try fetch(request, url: url, anyStatus: true)
    }

    func fetch(_ request: CurlRequest, url: URL, anyStatus: Bool) throws -> LoadedPage {
        let curl: CurlEasy
        let body = CurlBody(limit: maxBytes)
        do {
            curl = try CurlEasy(request)
            curl.receiver = body
            body.stopOnMediaContentType = true
        } catch {
            throw LoadError.other(url, "\(error)")
        }

        let failure = curl.perform()
        let finalURL = curl.effectiveURL ?? url
        if body.stoppedForMedia {
            return LoadedPage(requestedURL: url, finalURL: finalURL, statusCode: curl.responseCode,
                              contentType: curl.contentType, body: Data(), loader: .http)
        }
        if let failure {
            throw Self.loadError(failure, url: url, body: body, totalTimeout: totalTimeout)
        }
        let status = curl.responseCode
        guard anyStatus || (200..<300).contains(status) else { throw LoadError.httpStatus(finalURL, status) }
        return LoadedPage(requestedURL: url, finalURL: finalURL, statusCode: status,
                          contentType: curl.contentType, body: body.data, loader: .http)
    }

    static func loadError(_ failure: CurlError, url: URL, body: CurlBody, totalTimeout: TimeInterval) -> LoadError {
        if body.overflowed || failure.code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(url, limitBytes: body.limit) }
        if failure.code == CURLE_TOO_MANY_REDIRECTS { return .tooManyRedirects(url) }
        if failure.isTimeout { return .timedOut(url, seconds: Int(totalTimeout.rounded(.up))) }
        if failure.isUnreachable { return .unreachable(url, failure.message) }
        return .other(url, failure.message)
    }
}
