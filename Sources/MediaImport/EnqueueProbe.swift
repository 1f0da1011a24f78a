import Foundation
import PiperSystem

/// Asks a server what an extension-less link is, without downloading it: a `HEAD`, or when
/// the server won't answer one, a `GET` for the first byte only. `connectionGuard` is the
/// address policy of a server probing for its clients (nil: the CLI's own shares).
public struct EnqueueProbe: Sendable {
    package var timeoutSeconds = 5
    package var connectionGuard: CurlConnectionGuard?

    /// A probe with the default timeout; `piper serve` passes its fetch guard, the CLI none.
    public init(connectionGuard: CurlConnectionGuard? = nil) {
        self.connectionGuard = connectionGuard
    }

    /// The `Content-Type` the link answers with, or nil when it has none.
    package func contentType(of url: URL) throws -> String? {
        let head = try request(url, head: true)
        if (200..<300).contains(head.status), let type = head.contentType { return type }
        let ranged = try request(url, head: false)
        guard (200..<300).contains(ranged.status) else {
            throw EnqueueError.probeFailed(url.absoluteString, ResponseDecision.httpReason(ranged.status))
        }
        return ranged.contentType
    }

    private func request(_ url: URL, head: Bool) throws -> ResponseHeaders {
        var probe = CurlRequest(url: url)
        probe.redirects = .standard
        probe.totalTimeout = TimeInterval(timeoutSeconds)
        probe.userAgent = DownloadSettings().userAgent
        probe.headers = ["Accept-Encoding: identity"]
        if head { probe.method = .head } else { probe.range = .init(from: 0, through: 0) }
        probe.connectionGuard = connectionGuard
        let easy = try CurlEasy(probe)
        let box = ProbeHeaders()
        easy.receiver = box
        if let failure = easy.perform() { throw EnqueueError.probeFailed(url.absoluteString, failure.description) }
        return box.headers
    }
}
