import CCurl
import Foundation

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
        let easy = try CurlEasy()
        let box = ProbeHeaders()
        easy.set(CURLOPT_URL, url.absoluteString)
        easy.set(CURLOPT_FOLLOWLOCATION, 1)
        easy.set(CURLOPT_MAXREDIRS, 10)
        easy.set(CURLOPT_NOSIGNAL, 1)
        easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        easy.set(CURLOPT_TIMEOUT, timeoutSeconds)
        easy.set(CURLOPT_USERAGENT, DownloadSettings().userAgent)
        easy.setHeaders(["Accept-Encoding: identity"])
        if head { easy.set(CURLOPT_NOBODY, 1) } else { easy.set(CURLOPT_RANGE, "0-0") }
        easy.set(CURLOPT_WRITEFUNCTION, data: piperCurlDiscardCallback)
        easy.set(CURLOPT_HEADERFUNCTION, data: piperCurlProbeHeaderCallback)
        easy.set(CURLOPT_HEADERDATA, pointer: Unmanaged.passUnretained(box).toOpaque())
        let code = withExtendedLifetime(box) { easy.perform() }
        guard code.isOK else { throw EnqueueError.probeFailed(url.absoluteString, code.description) }
        return box.headers
    }
}
