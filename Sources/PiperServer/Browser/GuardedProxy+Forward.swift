import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain http through the browser's proxy: one request per connection. The proxy reads only a
/// connection's first request head, so a second request on a kept-alive connection would go to
/// the first one's server unread; instead exactly the first request (its head and its stated
/// body) is forwarded, its answer goes back marked `Connection: close` (the browser then opens a
/// new connection, and the proxy sees a new head, for its next request), and a byte more from
/// the browser ends the connection.
extension GuardedProxy {
    static func forwardOne(_ request: ProxyRequest, rest: [UInt8], client: Int32, upstream: Int32) {
        guard send(upstream, Array(request.originForm.utf8)) else { return }
        // The body: what came behind the head, then the rest from the client; bytes past it are
        // a next request, never forwarded (the connection ends after this answer).
        var remaining = request.bodyLength
        let first = Array(rest.prefix(remaining))
        if !first.isEmpty, !send(upstream, first) { return }
        remaining -= first.count
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while remaining > 0 {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, min($0.count, remaining), 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0, send(upstream, Array(buffer[0..<n])) else { return }
            remaining -= n
        }
        relayAnswer(to: request, client: client, upstream: upstream)
    }

    /// Copies the answer to the client, its head rewritten (`AnswerHead`), up to its stated
    /// length, else until the server closes or both sides are idle for a minute.
    static func relayAnswer(to request: ProxyRequest, client: Int32, upstream: Int32) {
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: [UInt8] = []   // bytes of a head not complete yet
        var inBody = false
        var left: Int?               // body bytes still to come, when the answer states its length
        while true {
            let ready = poll(&fds, 2, 60_000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return }
            if fds[0].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { return }            // a second request: not forwarded, the connection ends
                if n == 0 { fds[0].fd = -1 }   // the client only closed its side: the answer still goes
            }
            guard fds[1].revents != 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            var out: [UInt8] = []
            var bytes = Array(buffer[0..<n])
            while !inBody {
                pending += bytes
                bytes = []
                guard let end = AnswerHead.end(of: pending) else {
                    if pending.count > 64 * 1024 { return }
                    break
                }
                let head = AnswerHead(String(decoding: pending[..<end], as: UTF8.self), method: request.method)
                out += Array(head.text.utf8)
                bytes = Array(pending[(end + 4)...])
                pending = []
                // An interim answer (100, 103) goes as it is, and another head follows it.
                if !head.isInterim {
                    inBody = true
                    left = head.bodyLength
                }
            }
            if inBody {
                if let count = left {
                    bytes = Array(bytes.prefix(count))
                    left = count - bytes.count
                }
                out += bytes
            }
            guard out.isEmpty || send(client, out) else { return }
            if left == 0 { return }
        }
    }
}

/// An answer's head on its way back to the browser: `Connection: close` in place of the
/// server's connection headers, and how long its body is.
struct AnswerHead {
    /// The head to send, through its blank line.
    let text: String
    /// 1xx but 101: another head follows.
    let isInterim: Bool
    /// The body's length: 0 for HEAD, 204 and 304; the `Content-Length`; nil when only the
    /// server's close ends it (chunked, or no length).
    let bodyLength: Int?

    init(_ head: String, method: String) {
        let lines = head.components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        isInterim = (100..<200).contains(status) && status != 101
        if isInterim {
            text = head + "\r\n\r\n"
            bodyLength = nil
            return
        }
        let headers = lines.dropFirst().filter {
            let name = $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return !$0.isEmpty && name != "connection" && name != "keep-alive" && name != "proxy-connection"
        }
        text = ([lines[0]] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
        let lengths = ProxyRequest.values(of: "content-length", in: Array(headers))
        if method == "HEAD" || status == 204 || status == 304 {
            bodyLength = 0
        } else if !ProxyRequest.values(of: "transfer-encoding", in: Array(headers)).isEmpty || lengths.count != 1 {
            bodyLength = nil
        } else {
            bodyLength = Int(lengths[0]).flatMap { $0 >= 0 ? $0 : nil }
        }
    }

    /// Where the head's blank line starts, once it has arrived.
    static func end(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
}
