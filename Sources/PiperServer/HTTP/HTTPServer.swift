import CMicroHTTPD
import Foundation
import Synchronization

/// Settings of the HTTP listener itself (routes and stores are configured elsewhere).
public struct HTTPServerOptions: Sendable {
    /// Numeric IPv4 or IPv6 address to bind.
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; read the real one from `HTTPServer.port`.
    public var port: UInt16 = 0
    /// Worker threads, each with its own epoll loop (never a thread per connection). Saves no
    /// longer hold a thread while they commit, so a few loops suffice: on 2 cores, 4–8 served
    /// about 20 % more saves than 32 (fewer wake-ups per resumed connection) and GETs as fast.
    public var threads: Int = 8
    /// Bodies larger than this get a 413 before the responder sees them.
    public var maxBodyBytes: Int = 5 * 1024 * 1024
    public var connectionLimit: Int = 1024
    /// libmicrohttpd's idle timeout: restarts with every byte (see `clientLimits` for deadlines).
    public var connectionTimeoutSeconds: Int = 30
    /// Per-client connection limit, request-head deadline and body-rate floor.
    public var clientLimits = ClientLimits()
    /// Longer URLs (path and query) get a 414, larger request heads a 431, both answered here as
    /// `{"error": ...}` (an HTML page for browsers).
    public var maxURLBytes = 8 * 1024
    public var maxHeaderBytes = 32 * 1024
    /// libmicrohttpd's per-connection memory pool, which must hold a whole request head: twice
    /// the head limit above, so libmicrohttpd's own HTML 414/431 pages are only for heads about
    /// twice as large. libmicrohttpd 0.9.75 zeroes the whole pool before each request on a
    /// kept-alive connection; Piper used to skip that wipe by rewriting the library's `memset`
    /// import at run time, and no longer patches the library (the measured cost is in the
    /// README's server benchmark).
    public var connectionMemoryBytes = 64 * 1024
    /// Which requests stream their bodies and which answer later, asked from the request's
    /// head (the route table says, from its routes' declarations). Without it, every POST may
    /// answer later (`respond(to:reply:)`, its connection suspended until the reply) and no
    /// body streams.
    public var plan: (any RequestPlanning)?
    /// Peers whose `X-Forwarded-For` names the client in the access log.
    public var trustedProxies: Set<String> = []
    /// Answers found from the path alone, before a GET or HEAD is parsed (cached reader pages).
    public var prepared: (any PreparedAnswers)?
    /// Makes the stream of a request whose body streams (`plan`), instead of collecting up to
    /// `maxBodyBytes`; it may still decline one (nil: not an upload after all).
    public var bodyStreams: BodyStreamFactory?
    /// Where the one-line-per-request log goes; nil silences it.
    public var log: RequestLog? = RequestLog.bufferedStandardError

    public init() {}
}

/// The server could not start listening.
public struct HTTPServerStartError: Error, CustomStringConvertible, Sendable {
    public let host: String
    public let port: UInt16
    /// Set when a probe found the port taken.
    public var inUse = false
    /// Set when libmicrohttpd (opened on first use) could not be loaded: why.
    public var libraryFailure: String?
    public var description: String {
        if let libraryFailure { return "Cannot start the HTTP server: \(libraryFailure)" }
        return inUse
            ? "Port \(port) on \(host) is already in use: stop the program using it, or pick another with --port (0 picks a free one)."
            : "Cannot listen on \(host):\(port): --host must be a numeric address of this machine (such as 127.0.0.1 or ::1)."
    }
}

/// Owns one libmicrohttpd daemon for its whole life: `init` starts it, `stop()` (or `deinit`)
/// quiesces it and waits for its worker threads to finish.
///
/// `@unchecked Sendable`: `daemon` is written only in `init` and in `stop()`, which `lock`
/// serializes; the callbacks only read the immutable `responder` and `options`.
public final class HTTPServer: @unchecked Sendable {
    /// A declared body up to this many times `maxBodyBytes` is read and dropped before its 413.
    static let drainFactor = 4
    let responder: any HTTPResponder
    let options: HTTPServerOptions
    let lock = NSLock()
    var daemon: OpaquePointer?
    /// Requests between their head and their completion (what a graceful stop waits for).
    let activeRequests = Atomic<Int>(0)
    /// Set once a stop began: new requests are answered 503 with `Retry-After`.
    let draining = Atomic<Bool>(false)
    /// Requests whose answers come later, by their state's identity (`stop(grace:)`).
    let pending = Mutex<[ObjectIdentifier: PendingAnswer]>([:])
    /// Counts deferred answers still to come, so `stop()` can wait for them (a daemon must not
    /// stop while a connection is suspended).
    let inFlight = DispatchGroup()
    let connections: ConnectionGuard
    public private(set) var port: UInt16 = 0

    public init(responder: any HTTPResponder, options: HTTPServerOptions) throws {
        self.responder = responder
        self.options = options
        self.connections = ConnectionGuard(limits: options.clientLimits, trustedProxies: options.trustedProxies,
                                           connectionLimit: options.connectionLimit)
        // Said in one sentence before libmicrohttpd would log its own bind error.
        if options.port != 0, PortProbe.isInUse(host: options.host, port: options.port) {
            throw HTTPServerStartError(host: options.host, port: options.port, inUse: true)
        }
        if let failure = piper_mhd_load() {
            var error = HTTPServerStartError(host: options.host, port: options.port)
            error.libraryFailure = String(cString: failure)
            throw error
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let guardian = Unmanaged.passUnretained(connections).toOpaque()
        guard let started = piper_mhd_start(options.host, options.port, UInt32(max(1, options.threads)),
                                            UInt32(options.connectionLimit), UInt32(options.connectionTimeoutSeconds),
                                            max(64 * 1024, options.connectionMemoryBytes),
                                            piperAccessHandler, me, piperRequestCompleted, me,
                                            piperAcceptPolicy, piperNotifyConnection, guardian) else {
            throw HTTPServerStartError(host: options.host, port: options.port)
        }
        daemon = started
        port = piper_mhd_bound_port(started)
        connections.startSweeping()
    }

    deinit { stop() }

    /// Stops accepting connections, then stops the workers (in-flight handlers finish first,
    /// however long they take; `stop(grace:)` bounds that).
    public func stop() {
        stop(grace: nil)
    }

    /// `http://host:port`, with brackets around an IPv6 host.
    public var baseURL: String {
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)"
    }
}
