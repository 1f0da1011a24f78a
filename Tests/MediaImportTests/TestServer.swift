import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server for download tests, on 127.0.0.1 and a port the kernel picks.
/// It honours Range, If-Range, ETag and Last-Modified, and injects faults on demand.
/// Every connection is answered on its own thread and closed after one response.
///
/// `@unchecked Sendable`: `routes`, `counts`, `log`, `stopped`, `active` and `peak` are
/// guarded by `lock`.
final class TestServer: @unchecked Sendable {
    struct Resource: Sendable {
        var body: [UInt8]
        var contentType = "audio/mpeg"
        var etag: String? = "\"v1\""
        var lastModified: String? = "Mon, 02 Nov 2026 10:00:00 GMT"
        var contentDisposition: String?
        var supportsRanges = true
    }

    enum Fault: Sendable {
        /// The first `times` requests get this status (with an optional Retry-After).
        case status(Int, times: Int, retryAfter: String? = nil)
        /// The first `times` requests get `bytes` of body, then a TCP reset.
        case resetAfter(bytes: Int, times: Int)
        /// The first `times` requests get `afterBytes` of body, then silence for `seconds`.
        case stall(afterBytes: Int, seconds: Double, times: Int)
        /// Every body is sent `chunk` bytes at a time, `interval` seconds apart.
        case drip(chunk: Int, interval: Double)
        /// From request `afterRequests + 1` on, the path serves `resource` instead.
        case replace(with: Resource, afterRequests: Int)
        /// Every ranged request gets 416.
        case always416
        /// Ranged requests are answered 206 whatever their If-Range says (a server that ignores it).
        case ignoreIfRange
        /// The first `times` requests get `bytes` of body, then a clean close: short of the
        /// Content-Length they announced.
        case shortBody(bytes: Int, times: Int)
        /// No Content-Length: the body ends when the connection closes.
        case noContentLength
        /// Announces this Content-Length whatever the body is.
        case claimLength(Int64)
        /// An extra response header.
        case header(String, String)
        /// Answers 401 unless the request carries HTTP basic auth for "user:password".
        case basicAuth(String)
    }

    struct Recorded: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    private let lock = NSLock()
    private var routes: [String: (Resource, [Fault])] = [:]
    private var counts: [String: Int] = [:]
    private var log: [Recorded] = []
    private var stopped = false
    private var active = 0
    private var peak = 0
    private let listener: Int32
    let port: UInt16

    /// A server on `port` (0: the kernel picks one), e.g. to come back on the port of one that went away.
    init(port requested: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError.socket(errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw TestServerError.socket(errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    func route(_ path: String, _ resource: Resource, faults: [Fault] = []) {
        lock.lock(); routes[path] = (resource, faults); lock.unlock()
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The most connections open at the same time so far.
    var peakConnections: Int {
        lock.lock(); defer { lock.unlock() }
        return peak
    }

    /// The requests received for `path`, in order.
    func requests(_ path: String) -> [Recorded] {
        lock.lock(); defer { lock.unlock() }
        return log.filter { $0.path == path }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in
                lock.lock(); active += 1; peak = max(peak, active); lock.unlock()
                handle(client)
                lock.lock(); active -= 1; lock.unlock()
            }
        }
    }

    /// Records the request and returns what to serve: the resource, its faults, and which
    /// request to this path it is (1-based). Nil for an unknown path.
    func lookup(_ request: Recorded) -> (Resource, [Fault], Int)? {
        lock.lock(); defer { lock.unlock() }
        log.append(request)
        guard var (resource, faults) = routes[request.path] else { return nil }
        let n = (counts[request.path] ?? 0) + 1
        counts[request.path] = n
        for case .replace(let other, let after) in faults where n > after { resource = other }
        faults = faults.filter { if case .replace = $0 { return false }; return true }
        return (resource, faults, n)
    }
}

enum TestServerError: Error { case socket(Int32) }
