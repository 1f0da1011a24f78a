import Foundation
import PiperSystem

/// One conditional GET of a followed feed, as a good citizen makes it: `If-None-Match` and
/// `If-Modified-Since` from the last answer, any content encoding libcurl decodes, redirects
/// followed here (not by libcurl) so that a permanent one (301, 308) is seen and the follow
/// moves, and every hop checked by the agent's connection guard.
package struct FeedFetch: Sendable {
    package var connectionGuard: CurlConnectionGuard?
    package var timeout: TimeInterval = 30
    /// A feed larger than this is refused (a 5,000-episode feed is a few megabytes).
    package var maxBytes = 64 << 20
    package var userAgent = "Piper/0.1 (podcast follow)"

    package init(connectionGuard: CurlConnectionGuard? = nil) {
        self.connectionGuard = connectionGuard
    }

    package enum Answer: Equatable {
        /// 304: nothing new since the validators.
        case notModified
        case fetched(body: Data, contentType: String?, etag: String?, lastModified: String?)
        /// 410: the feed is gone for good.
        case gone
        /// Anything else: the reason in a sentence, and the server's `Retry-After`.
        case failed(String, retryAfter: TimeInterval?)
    }

    package struct Result: Equatable {
        package var answer: Answer
        /// Where the feed now lives, when a permanent redirect said so.
        package var movedTo: URL?
        /// The body bytes received on the wire (compressed as sent), for the refresh's figures.
        package var bytes: Int
    }

    package func fetch(_ url: URL, etag: String?, lastModified: String?) -> Result {
        var current = url
        var moved: URL?
        var permanent = true
        var bytes = 0
        for _ in 0..<10 {
            var request = CurlRequest(url: current)
            request.redirects = .none
            request.userAgent = userAgent
            request.totalTimeout = timeout
            request.connectTimeout = min(timeout, 15)
            request.decodesContent = true
            request.connectionGuard = connectionGuard
            request.headers = ["Accept: application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"]
            if let etag { request.headers.append("If-None-Match: \(etag)") }
            if let lastModified { request.headers.append("If-Modified-Since: \(lastModified)") }
            let receiver = FeedReceiver(limit: maxBytes)
            let easy: CurlEasy
            do { easy = try CurlEasy(request) } catch { return Result(answer: .failed("\(error)", retryAfter: nil), movedTo: moved, bytes: bytes) }
            easy.receiver = receiver
            let failure = easy.perform()
            bytes += easy.downloadedBytes
            if receiver.tooLarge { return Result(answer: .failed("The feed is larger than \(maxBytes >> 20) MB", retryAfter: nil), movedTo: moved, bytes: bytes) }
            if let failure { return Result(answer: .failed(failure.description, retryAfter: nil), movedTo: moved, bytes: bytes) }
            let status = receiver.headers.status
            switch status {
            case 301, 302, 303, 307, 308:
                guard let location = receiver.headers["location"], let next = URL(string: location, relativeTo: current)?.absoluteURL,
                      next.scheme == "http" || next.scheme == "https" else {
                    return Result(answer: .failed("A redirect without a usable Location (HTTP \(status))", retryAfter: nil), movedTo: moved, bytes: bytes)
                }
                // Only an unbroken chain of permanent redirects moves the follow.
                permanent = permanent && (status == 301 || status == 308)
                if permanent { moved = next }
                current = next
            case 304:
                return Result(answer: .notModified, movedTo: moved, bytes: bytes)
            case 410:
                return Result(answer: .gone, movedTo: moved, bytes: bytes)
            case 200..<300:
                return Result(answer: .fetched(body: receiver.body, contentType: receiver.headers.contentType,
                                               etag: receiver.headers.etag, lastModified: receiver.headers.lastModified),
                              movedTo: moved, bytes: bytes)
            default:
                return Result(answer: .failed(ResponseDecision.httpReason(status), retryAfter: easy.retryAfter.map(TimeInterval.init)),
                              movedTo: moved, bytes: bytes)
            }
        }
        return Result(answer: .failed("More than 10 redirects", retryAfter: nil), movedTo: moved, bytes: bytes)
    }
}

/// A feed's headers and body, the body cut off past `limit`.
private final class FeedReceiver: CurlReceiver {
    var headers = ResponseHeaders()
    var body = Data()
    var tooLarge = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func curlReceive(headerLine: String) { headers.consume(line: headerLine) }

    func curlReceive(body chunk: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool {
        guard body.count + chunk.count <= limit else { tooLarge = true; return false }
        body.append(contentsOf: chunk)
        return true
    }
}
