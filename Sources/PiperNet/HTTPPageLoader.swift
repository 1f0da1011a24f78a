import CCurl
import Foundation
import PiperCore

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
        do {
            curl = try CurlEasy(url: url, limit: maxBytes)
            try curl.set(CURLOPT_FOLLOWLOCATION, 1)
            try curl.set(CURLOPT_MAXREDIRS, maxRedirects)
            try curl.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding this libcurl supports
            try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
            try curl.set(CURLOPT_TIMEOUT_MS, Int(totalTimeout * 1000))
            try curl.set(CURLOPT_USERAGENT, userAgent)
            try curl.addHeader("Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
            try curl.addHeader("Accept-Language: en-US,en;q=0.9")
            try curl.set(CURLOPT_COOKIEFILE, "")  // turns the cookie engine on, reads no file
            for cookie in cookies {
                try curl.set(CURLOPT_COOKIELIST, NetscapeCookies.line(for: cookie))
            }
            curl.body.stopOnMediaContentType = true
        } catch {
            throw LoadError.other(url, "\(error)")
        }

        let code = curl.perform()
        let finalURL = curl.effectiveURL ?? url
        if curl.body.stoppedForMedia {
            return LoadedPage(requestedURL: url, finalURL: finalURL, statusCode: curl.responseCode,
                              contentType: curl.contentType, body: Data(), loader: .http)
        }
        guard code == CURLE_OK else {
            throw Self.loadError(code, url: url, curl: curl, totalTimeout: totalTimeout)
        }
        let status = curl.responseCode
        guard (200..<300).contains(status) else { throw LoadError.httpStatus(finalURL, status) }
        return LoadedPage(requestedURL: url, finalURL: finalURL, statusCode: status,
                          contentType: curl.contentType, body: curl.body.data, loader: .http)
    }

    static func loadError(_ code: CURLcode, url: URL, curl: CurlEasy, totalTimeout: TimeInterval) -> LoadError {
        let failure = CurlFailure(code: code, message: curl.message(for: code))
        if curl.body.overflowed || code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(url, limitBytes: curl.body.limit) }
        if code == CURLE_TOO_MANY_REDIRECTS { return .tooManyRedirects(url) }
        if failure.isTimeout { return .timedOut(url, seconds: Int(totalTimeout.rounded(.up))) }
        if failure.isUnreachable { return .unreachable(url, failure.message) }
        return .other(url, failure.message)
    }
}
