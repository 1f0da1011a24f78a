import Foundation
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

/// The only way out for the browser `piper serve` drives: a forward proxy on loopback that
/// applies the server's `FetchPolicy` to every connection the browser makes (every page, every
/// redirect hop, every subresource, frame and fetch). It resolves the name itself, refuses
/// loopback, private, link-local, CGNAT, multicast and metadata addresses (a host named by
/// `--allow-host` is opened by that name only), and connects to the very address it checked,
/// so a name that answers differently the second time changes nothing. `CONNECT` carries https
/// (and WebSockets): one tunnel to the one destination checked. Plain http carries one request
/// per connection (`GuardedProxy+Forward`): it is forwarded in origin form with `Connection:
/// close`, its answer goes back with `Connection: close`, and a second request on the connection
/// ends it, so no request passes the proxy without the policy having seen its destination.
///
/// Chromium is started with it for every scheme and host, loopback included
/// (`BrowserGuard.flags`), so nothing leaves by another road.
///
/// `@unchecked Sendable`: `listener` is set once in `init` and closed once in `stop()`;
/// `refusals` is guarded by `lock`; each connection is served by a thread of its own.
public final class GuardedProxy: @unchecked Sendable {
    public let port: UInt16
    let policy: FetchPolicy
    /// How a host name becomes addresses: `FetchGuard.resolve` (the system's resolver); a test
    /// hands in its own, so that a name (x.com) reaches a local server without touching DNS.
    let resolve: @Sendable (String) -> [NetworkAddress]
    private let listener: Int32
    private let lock = NSLock()
    private var refused: [String] = []
    private var stopped = false

    /// A proxy on a free loopback port that resolves names with the system's resolver.
    public convenience init(policy: FetchPolicy) throws {
        try self.init(policy: policy, resolve: { FetchGuard.resolve($0) })
    }

    package init(policy: FetchPolicy, resolve: @escaping @Sendable (String) -> [NetworkAddress]) throws {
        self.policy = policy
        self.resolve = resolve
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPError(500, "Cannot open the browser's proxy socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 64) == 0 else { close(fd); throw HTTPError(500, "Cannot listen for the browser's proxy") }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.name = "piper-browser-proxy"
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    /// What was refused so far, one line each ("host:port: reason"), oldest first.
    public var refusals: [String] { lock.withLock { refused } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return   // stopped
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    /// One browser connection: its request head, the policy's verdict, then bytes both ways.
    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let (head, rest) = Self.readHead(client), let request = ProxyRequest(head) else {
            Self.answer(client, 400, "Bad proxy request")
            return
        }
        if request.isChunked {
            Self.answer(client, 411, "The browser's proxy forwards request bodies of a stated length only")
            return
        }
        let upstream: Int32
        switch connect(to: request.host, port: request.port) {
        case .refused(let reason):
            lock.withLock { refused.append("\(request.host):\(request.port): \(reason)") }
            Self.answer(client, 403, reason)
            return
        case .failed(let reason):
            Self.answer(client, 502, reason)
            return
        case .connected(let fd):
            upstream = fd
        }
        defer { close(upstream) }
        if request.isConnect {
            guard Self.send(client, Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)) else { return }
            if !rest.isEmpty, !Self.send(upstream, rest) { return }
            Self.splice(client, upstream)
        } else {
            Self.forwardOne(request, rest: rest, client: client, upstream: upstream)
        }
    }

    enum Connection { case connected(Int32), refused(String), failed(String) }

    /// A connection to `host` on an address the policy allows, checked before connecting.
    func connect(to host: String, port: Int) -> Connection {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let named = policy.allowedHosts.contains(bare.lowercased())
        let addresses = NetworkAddress(bare).map { [$0] } ?? resolve(bare)
        guard !addresses.isEmpty else { return .failed("Cannot resolve \(bare)") }
        var lastRefusal: String?
        for address in addresses {
            if !named, let refusal = policy.refusal(of: address, host: NetworkAddress(bare) == nil ? bare : nil) {
                lastRefusal = refusal
                continue
            }
            if let fd = Self.open(address, port: port) { return .connected(fd) }
        }
        return lastRefusal.map(Connection.refused) ?? .failed("Cannot connect to \(bare):\(port)")
    }

    static func open(_ address: NetworkAddress, port: Int) -> Int32? {
        let fd = socket(address.isIPv4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var ok = false
        if address.isIPv4 {
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &sin.sin_addr) { $0.copyBytes(from: address.bytes) }
            ok = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 } }
        } else {
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            sin6.sin6_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &sin6.sin6_addr) { $0.copyBytes(from: address.bytes) }
            ok = withUnsafePointer(to: &sin6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 } }
        }
        if !ok { close(fd); return nil }
        return fd
    }

    /// The request head (through the blank line, at most 64 KB) and what came after it.
    static func readHead(_ fd: Int32) -> (String, [UInt8])? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < 64 * 1024 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            bytes += buffer[0..<n]
            if let end = bytes.indices.dropLast(3).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) {
                return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
            }
        }
        return nil
    }

    static func answer(_ fd: Int32, _ status: Int, _ reason: String) {
        let body = reason + "\n"
        let text = status == 403 ? "Forbidden" : status == 400 ? "Bad Request" : status == 411 ? "Length Required" : "Bad Gateway"
        _ = send(fd, Array("HTTP/1.1 \(status) \(text)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8))
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Copies bytes both ways until either side closes or both are idle for a minute.
    static func splice(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let ready = poll(&fds, 2, 60_000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return }
            for index in 0..<2 where fds[index].revents != 0 {
                let from = fds[index].fd, to = fds[1 - index].fd
                let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
                guard n > 0, send(to, Array(buffer[0..<n])) else { return }
            }
        }
    }
}

/// A proxy request's first line and headers: `CONNECT host:port`, or an absolute-form request
/// (`GET http://host:port/path HTTP/1.1`) to forward in origin form.
struct ProxyRequest {
    let isConnect: Bool
    /// The request's method (`CONNECT`, `GET`, `HEAD`…).
    let method: String
    let host: String
    let port: Int
    /// For a forwarded request: its head in origin form, `Connection: close`, no proxy headers.
    let originForm: String
    /// The request body's length (its `Content-Length`; 0 without one).
    let bodyLength: Int
    /// A body sent in chunks: its end is not in the head, so it is refused.
    let isChunked: Bool

    init?(_ head: String) {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3 else { return nil }
        method = String(parts[0])
        if parts[0] == "CONNECT" {
            guard let colon = parts[1].lastIndex(of: ":"), let port = Int(parts[1][parts[1].index(after: colon)...]) else { return nil }
            isConnect = true
            host = String(parts[1][..<colon])
            self.port = port
            originForm = ""
            bodyLength = 0
            isChunked = false
            return
        }
        guard let url = URLComponents(string: String(parts[1])), url.scheme?.lowercased() == "http", let host = url.host else { return nil }
        isConnect = false
        self.host = host
        port = url.port ?? 80
        let target = (url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath) + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
        let headers = lines.dropFirst().filter {
            let name = $0.split(separator: ":").first?.lowercased() ?? ""
            return !$0.isEmpty && name != "proxy-connection" && name != "connection" && name != "proxy-authorization" && name != "keep-alive"
        }
        originForm = "\(parts[0]) \(target) \(parts[2])\r\n" + (headers + ["Connection: close"]).joined(separator: "\r\n") + "\r\n\r\n"
        let lengths = Self.values(of: "content-length", in: headers)
        guard lengths.count <= 1, let length = Int(lengths.first ?? "0"), length >= 0 else { return nil }
        bodyLength = length
        isChunked = !Self.values(of: "transfer-encoding", in: headers).isEmpty
    }

    /// The values of the header `name` (lowercase) among `lines`, trimmed.
    static func values(of name: String, in lines: [String]) -> [String] {
        lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == name else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}

/// How Chromium is started behind `GuardedProxy`: every scheme and host through it, loopback
/// included (Chromium bypasses loopback by default), no QUIC and no WebRTC UDP that would not
/// go through it.
public enum BrowserGuard {
    public static func flags(proxyPort: UInt16) -> [String] {
        ["--proxy-server=http://127.0.0.1:\(proxyPort)", "--proxy-bypass-list=<-loopback>", "--disable-quic",
         "--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--webrtc-ip-handling-policy=disable_non_proxied_udp"]
    }
}
