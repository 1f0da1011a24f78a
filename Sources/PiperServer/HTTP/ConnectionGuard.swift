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
        /// The responder has the request: no deadline applies (a share may load a page for long).
        case answering
        /// The answer is queued and going out since `since`: its reader must keep up with
        /// `ClientLimits.minSendBytesPerSecond`, which the sweep judges from the socket
        /// (`ConnectionGuard+Pressure`), not from this value.
        case sending
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
        /// Still in its head or body when the server needed room for a new connection and this
        /// was among the oldest such (`ClientLimits.maxSlowConnections`).
        case evicted
        /// Its answer was read slower than the floor over a whole window: cut off mid-answer,
        /// so nothing more can be written on it.
        case slowReader(bytesPerSecond: Int)

        /// The bytes sent before the socket is shut: the 408 with its reason, or none.
        var answer: [UInt8] {
            switch self {
            case .idle, .slowReader: return []
            case .headTimeout, .tooSlow, .evicted: return ConnectionGuard.timeoutAnswer(self)
            }
        }

        var message: String {
            switch self {
            case .headTimeout(let seconds):
                return "The request head did not arrive within \(Self.seconds(seconds))"
            case .tooSlow(let rate):
                return "The request body arrived slower than \(rate) bytes per second"
            case .idle:
                return "The connection was idle for longer than the head deadline"
            case .evicted:
                return "The request was still arriving when the server needed the connection for another client"
            case .slowReader(let rate):
                return "The answer was read slower than \(rate) bytes per second"
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
        case .answering, .sending, .closing:
            return nil
        }
    }

    /// Whether the phase waits on the client's bytes (a head, a body, the next request): the
    /// connections `ClientLimits.maxSlowConnections` counts.
    var isWaitingOnClient: Bool {
        phase == .head || phase == .idle || phase == .body
    }

    /// The pure rule for a reader: `acked` bytes of the answer acknowledged over `seconds`, a
    /// whole window or more.
    static func readerVerdict(acked: Int, seconds: Double, limits: ClientLimits) -> Verdict? {
        guard limits.minSendBytesPerSecond > 0, limits.sendWindow > 0, seconds >= limits.sendWindow,
              Double(acked) < Double(limits.minSendBytesPerSecond) * seconds else { return nil }
        return .slowReader(bytesPerSecond: limits.minSendBytesPerSecond)
    }
}

/// Counts each client's connections and cuts off those that miss a deadline.
///
/// Each connection's phase lives in its own `WatchedConnection` (which requests move without
/// taking `lock`); `lock` guards only the set of open connections and the per-client counts,
/// touched when a connection opens or closes and by the sweep.
///
/// `@unchecked Sendable`: `open`, `counts` and `readers` are only touched while holding `lock`; the sweeper
/// shuts sockets down under that lock too, and libmicrohttpd reports a connection closed
/// (removing it here) before it closes its socket, so a socket cut off is still ours.
final class ConnectionGuard: @unchecked Sendable {
    let limits: ClientLimits
    /// `limits.maxSlowConnections`, kept below libmicrohttpd's connection limit (0: no budget).
    let slowBudget: Int
    private let trustedProxies: Set<String>
    let lock = NSLock()
    /// Guarded by `lock` (internal for `ConnectionGuard+Pressure`).
    var open: [ObjectIdentifier: WatchedConnection] = [:]
    private var counts: [String: Int] = [:]
    /// Each sending connection's current window, by connection; guarded by `lock`.
    var readers: [ObjectIdentifier: ReaderWindow] = [:]
    private var timer: DispatchSourceTimer?

    init(limits: ClientLimits, trustedProxies: Set<String>, connectionLimit: Int = 1024) {
        self.limits = limits
        self.trustedProxies = trustedProxies
        slowBudget = Self.slowBudget(limits.maxSlowConnections, connectionLimit: connectionLimit)
    }

    /// A budget at or above libmicrohttpd's own limit would never be spent: that limit stops
    /// accepting first, and a waiting client sits in the listen backlog. At most three quarters
    /// of it, so a quarter of the connections are always for clients that are not slow.
    static func slowBudget(_ configured: Int, connectionLimit: Int) -> Int {
        guard configured > 0 else { return 0 }
        return max(1, min(configured, connectionLimit - connectionLimit / 4))
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Whether a new connection from `client` may open. Checked before it is counted, so a
    /// burst accepted on several worker threads at once may overshoot by a few.
    /// Once the open connections reach the slow budget, a client already holding
    /// `shareUnderPressure` of them waits its turn (refused, as at its own limit), and another
    /// makes room: the oldest connections waiting on their clients are cut off (`makeRoom`), so
    /// the new one is served however many addresses the slow ones use.
    func admits(_ client: String) -> Bool {
        let perClient = limits.maxConnectionsPerClient > 0 && !trustedProxies.contains(client)
        guard perClient || slowBudget > 0 else { return true }
        return lock.withLock {
            let held = perClient ? counts[client, default: 0] : 0
            if perClient && held >= limits.maxConnectionsPerClient { return false }
            guard slowBudget > 0, open.count >= slowBudget else { return true }
            if perClient && held >= Self.shareUnderPressure { return false }
            makeRoom()
            return true
        }
    }

    /// The connections a client may hold while the slow budget is spent. Why: if the crowd's own
    /// new connections made room too, each would cut off another of the crowd, which reconnects
    /// at once; that churn (176,000 connections in a 20-second run) kept the accepting threads so
    /// busy that other clients' saves waited a second at the median. Refusing a heavy client is
    /// a check of its count; a browser opens about 6 connections to a host, so it is not refused.
    static let shareUnderPressure = 8

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
            readers[ObjectIdentifier(watched)] = nil
            guard open.removeValue(forKey: ObjectIdentifier(watched)) != nil, watched.counted else { return }
            let left = counts[watched.client, default: 1] - 1
            counts[watched.client] = left > 0 ? left : nil
        }
    }

    /// Cuts off every connection past its deadline: with a 408 `{"error": ...}`, or silently when
    /// it was idle between requests (`Verdict.idle`) or was reading its answer too slowly.
    func sweep(now given: UInt64? = nil) {
        lock.withLock {
            let now = given ?? Self.now()       // read after the phases judged below began, or they are young
            for (key, watched) in open {
                let (watch, raw) = watched.snapshot()
                if watch.phase == .sending {
                    judgeReader(key, watched, raw: raw, now: now)
                    continue
                }
                guard let verdict = watch.verdict(now: now, limits: limits), watched.cutOff(from: raw) else { continue }
                Self.cut(watched, verdict)
            }
        }
    }

    /// Sends the verdict's answer, if it has one, and shuts the socket down both ways. A slow
    /// reader's connection is reset instead: a shutdown would still deliver the answer's unsent
    /// megabytes in the send buffer at the reader's pace.
    static func cut(_ watched: WatchedConnection, _ verdict: ConnectionWatch.Verdict) {
        if case .slowReader = verdict {
            piper_reset_and_shut(watched.fd)
            return
        }
        verdict.answer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { piper_answer_and_shut(watched.fd, $0.baseAddress, $0.count) }
        }
    }

    static func timeoutAnswer(_ verdict: ConnectionWatch.Verdict) -> [UInt8] {
        let body = HTTPResponse.error(HTTPError(408, verdict.message)).body
        let head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n"
        return Array(head.utf8) + body
    }

    func startSweeping() {
        guard limits.headTimeout > 0 || limits.minBodyBytesPerSecond > 0 || limits.minSendBytesPerSecond > 0 else { return }
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
