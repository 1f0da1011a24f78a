import CCurl
import Foundation
import PiperSystem

/// Asks a server what an extension-less link is, without downloading it: a `HEAD`, or when
/// the server won't answer one, a `GET` for the first byte only.
public struct EnqueueProbe: Sendable {
    public var timeoutSeconds = 5

    public init() {}

    /// The `Content-Type` the link answers with, or nil when it has none.
    public func contentType(of url: URL) throws -> String? {
        let head = try request(url, head: true)
        if (200..<300).contains(head.status), let type = head.contentType { return type }
        let ranged = try request(url, head: false)
        guard (200..<300).contains(ranged.status) else {
            throw EnqueueError.probeFailed(url.absoluteString, ResponseDecision.httpReason(ranged.status))
        }
        return ranged.contentType
    }

    private func request(_ url: URL, head: Bool) throws -> ResponseHeaders {
        let easy = try CurlEasy(url: url)
        let box = ProbeHeaders()
        try easy.set(CURLOPT_FOLLOWLOCATION, 1)
        try easy.set(CURLOPT_MAXREDIRS, 10)
        try easy.set(CURLOPT_TIMEOUT, timeoutSeconds)
        try easy.set(CURLOPT_USERAGENT, DownloadSettings().userAgent)
        try easy.setHeaders(["Accept-Encoding: identity"])
        if head { try easy.set(CURLOPT_NOBODY, 1) } else { try easy.set(CURLOPT_RANGE, "0-0") }
        easy.receiver = box
        if let failure = easy.perform() { throw EnqueueError.probeFailed(url.absoluteString, failure.description) }
        return box.headers
    }
}
