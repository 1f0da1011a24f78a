import CCurl
import Foundation
import PiperCore
import PiperSystem

/// Loads a page over plain HTTP with libcurl: up to 10 redirects, the user's cookies sent only
/// to their domains (libcurl's cookie engine), gzip/brotli/zstd, a size cap, connect and total
/// timeouts and a desktop User-Agent. A media Content-Type stops the transfer at the headers.
public struct HTTPPageLoader: PageLoader {
    public static let desktopUserAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"

    public var maxRedirects = 10
    public var maxBytes = 20_000_000
    public var connectTimeout: TimeInterval = 10
    public var totalTimeout: TimeInterval = 30
    public var userAgent = HTTPPageLoader.desktopUserAgent

    public init() {}

    public func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        let curl: CurlEasy
        let body = CurlBody(limit: maxBytes)
        do {
            curl = try CurlEasy(url: url)
            curl.receiver = body
            try curl.set(CURLOPT_FOLLOWLOCATION, 1)
            try curl.set(CURLOPT_MAXREDIRS, maxRedirects)
            try curl.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding this libcurl supports
            try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
            try curl.set(CURLOPT_TIMEOUT_MS, Int(totalTimeout * 1000))
            try curl.set(CURLOPT_USERAGENT, userAgent)
            try curl.setHeaders(["Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", "Accept-Language: en-US,en;q=0.9"])
            try curl.set(CURLOPT_COOKIEFILE, "")  // turns the cookie engine on, reads no file
            for cookie in cookies {
                try curl.set(CURLOPT_COOKIELIST, NetscapeCookies.line(for: cookie))
            }
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
        guard (200..<300).contains(status) else { throw LoadError.httpStatus(finalURL, status) }
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
