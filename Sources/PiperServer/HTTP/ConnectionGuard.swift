import CMicroHTTPD
import Dispatch
import Foundation

/// Where one connection stands, as far as the hostile-client limits care.
struct ConnectionWatch: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Waiting for the first request head of a new connection.
        case head
        /// Kept alive after an answer, waiting for the next request head.
        case idle
        /// The head is in; `bytes` of the body have arrived since `since`.
        case body
        /// The responder has the request, or the answer is going out: no deadline applies.
        case answering
        /// Already cut off; waiting for the worker thread to close it.
        case closing
    }

    var phase: Phase = .head
    /// Monotonic nanoseconds when `phase` began.
    var since: UInt64
    var bytes = 0
    let fd: Int32
    let client: String
    /// Whether this connection counts against its client's limit (not when from a trusted proxy).
    let counted: Bool

    /// Why a connection is cut off.
    enum Verdict: Sendable, Equatable {
        case headTimeout(seconds: Double)
        case tooSlow(bytesPerSecond: Int)
        /// An idle keep-alive connection past the head deadline: closed without a word, as
        /// nginx closes one at its keepalive_timeout. A 408 written there would sit unread in
        /// the socket until the client reused the connection for its next request and took the
        /// 408 for that request's answer; a plain close makes the client open a new connection.
        case idle

        /// The bytes sent before the socket is shut: the 408 with its reason, or none.
        var answer: [UInt8] {
            self == .idle ? [] : ConnectionGuard.timeoutAnswer(self)
        }

        var message: String {
            switch self {
            case .headTimeout(let seconds):
                return "The request head did not arrive within \(Self.seconds(seconds))"
            case .tooSlow(let rate):
                return "The request body arrived slower than \(rate) bytes per second"
            case .idle:
                return "The connection was idle for longer than the head deadline"
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
        }
    }

    /// The pure rule: whether this connection has run out of time at `now`.
    func verdict(now: UInt64, limits: ClientLimits) -> Verdict? {
        // A phase may begin after the sweep read its clock (a worker thread moved it on before
        // the sweep took the lock): no time has passed then, rather than a wrapped-around age.
        let elapsed = now > since ? Double(now - since) / 1_000_000_000 : 0
        switch phase {
        case .head, .idle:
            guard limits.headTimeout > 0, elapsed > limits.headTimeout else { return nil }
            return phase == .idle ? .idle : .headTimeout(seconds: limits.headTimeout)
        case .body:
            guard limits.minBodyBytesPerSecond > 0, elapsed > limits.bodyRateGrace,
                  Double(bytes) < Double(limits.minBodyBytesPerSecond) * elapsed else { return nil }
            return .tooSlow(bytesPerSecond: limits.minBodyBytesPerSecond)
        case .answering, .closing:
            return nil
        }
    }
}

/// The limits that keep one client from taking the server (see `HTTPServerOptions.clientLimits`).
public struct ClientLimits: Sendable {
    /// Open connections one client address may hold; 0 disables. Connections from a trusted
    /// proxy are not counted: behind a balancer every client shares its address, so the
    /// balancer is where a per-client limit belongs (the deadlines below still apply).
    public var maxConnectionsPerClient = 64
    /// Seconds a request head may take to arrive, counted from the connection's opening or
    /// the previous answer (an idle keep-alive connection is closed after as long, without a
    /// 408); 0 disables.
    /// libmicrohttpd's own timeout restarts with every byte, so a trickle never trips it.
    public var headTimeout: TimeInterval = 15
    /// The slowest a body may arrive, averaged since the head, once `bodyRateGrace` has passed;
    /// 0 disables.
    public var minBodyBytesPerSecond = 1024
    public var bodyRateGrace: TimeInterval = 10
    /// How often the deadlines are checked.
    public var sweepInterval: TimeInterval = 0.5

    public init() {}
}

/// Counts each client's connections and cuts off those that miss a deadline.
///
/// Each connection's phase lives in its own `WatchedConnection` (which requests move without
/// taking `lock`); `lock` guards only the set of open connections and the per-client counts,
/// touched when a connection opens or closes and by the sweep.
///
/// `@unchecked Sendable`: `open` and `counts` are only touched while holding `lock`; the sweeper
/// shuts sockets down under that lock too, and libmicrohttpd reports a connection closed
/// (removing it here) before it closes its socket, so a socket cut off is still ours.
final class ConnectionGuard: @unchecked Sendable {
    let limits: ClientLimits
    private let trustedProxies: Set<String>
    private let lock = NSLock()
    private var open: [ObjectIdentifier: WatchedConnection] = [:]
    private var counts: [String: Int] = [:]
    private var timer: DispatchSourceTimer?

    init(limits: ClientLimits, trustedProxies: Set<String>) {
        self.limits = limits
        self.trustedProxies = trustedProxies
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Whether a new connection from `client` may open. Checked before it is counted, so a
    /// burst accepted on several worker threads at once may overshoot by a few.
    func admits(_ client: String) -> Bool {
        guard limits.maxConnectionsPerClient > 0, !trustedProxies.contains(client) else { return true }
        return lock.withLock { counts[client, default: 0] < limits.maxConnectionsPerClient }
    }

    /// Registers a connection just opened (waiting for its first request head).
    func opened(fd: Int32, client: String) -> WatchedConnection {
        let counted = limits.maxConnectionsPerClient > 0 && !trustedProxies.contains(client)
        let watched = WatchedConnection(fd: fd, client: client, counted: counted, since: Self.now())
        lock.withLock {
            open[ObjectIdentifier(watched)] = watched
            if counted { counts[client, default: 0] += 1 }
        }
        return watched
    }

    func closed(_ watched: WatchedConnection) {
        lock.withLock {
            guard open.removeValue(forKey: ObjectIdentifier(watched)) != nil, watched.counted else { return }
            let left = counts[watched.client, default: 1] - 1
            counts[watched.client] = left > 0 ? left : nil
        }
    }

    /// Cuts off every connection past its deadline: with a 408 `{"error": ...}`, or silently when
    /// it was idle between requests (`Verdict.idle`).
    func sweep(now given: UInt64? = nil) {
        lock.withLock {
            let now = given ?? Self.now()       // read after the phases judged below began, or they are young
            for watched in open.values {
                let (watch, raw) = watched.snapshot()
                guard let verdict = watch.verdict(now: now, limits: limits), watched.cutOff(from: raw) else { continue }
                verdict.answer.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { piper_answer_and_shut(watched.fd, $0.baseAddress, $0.count) }
                }
            }
        }
    }

    static func timeoutAnswer(_ verdict: ConnectionWatch.Verdict) -> [UInt8] {
        let body = HTTPResponse.error(HTTPError(408, verdict.message)).body
        let head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n"
        return Array(head.utf8) + body
    }

    func startSweeping() {
        guard limits.headTimeout > 0 || limits.minBodyBytesPerSecond > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = max(0.05, limits.sweepInterval)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
        lock.withLock { self.timer = timer }
    }

    func stopSweeping() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }
}

// libmicrohttpd's accept-policy and connection-notification callbacks (plain globals: see
// HTTPServer+Callbacks.swift).

func piperAcceptPolicy(_ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    guard let cls else { return .YES }
    let guardian = Unmanaged<ConnectionGuard>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 64)
    guard piper_format_address(address, &buffer, socklen_t(buffer.count)) == 0 else { return .YES }
    return guardian.admits(ClientAddress.string(buffer)) ? .YES : .NO
}

func piperNotifyConnection(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                           _ code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection, let socketContext else { return }
    let guardian = Unmanaged<ConnectionGuard>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == 0 { // MHD_CONNECTION_NOTIFY_STARTED (1 is CLOSED)
        var buffer = [CChar](repeating: 0, count: 64)
        let client = piper_mhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 0 ? ClientAddress.string(buffer) : ""
        let watched = guardian.opened(fd: piper_mhd_connection_fd(connection), client: client)
        socketContext.pointee = Unmanaged.passRetained(watched).toOpaque()
    } else if let raw = socketContext.pointee {
        socketContext.pointee = nil
        guardian.closed(Unmanaged<WatchedConnection>.fromOpaque(raw).takeRetainedValue())
    }
}

/// The connection's `WatchedConnection` (its socket context), if libmicrohttpd reported it open.
func watchedConnection(_ connection: OpaquePointer) -> WatchedConnection? {
    guard let raw = piper_mhd_socket_context(connection) else { return nil }
    return Unmanaged<WatchedConnection>.fromOpaque(raw).takeUnretainedValue()
}

extension ClientAddress {
    /// A NUL-terminated C buffer as a Swift string.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
