import Foundation

/// The limits that keep one client from taking the server (see `HTTPServerOptions.clientLimits`),
/// and many slow clients from taking it together.
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
    /// Connections, from all clients together, that may wait on their client at once (a head
    /// or body still arriving, or an idle keep-alive connection); 0 disables. When a new
    /// connection finds the budget spent, the oldest of them are cut off to make room (a 408,
    /// or a plain close for an idle one). Why: the per-client limit does not bound what many
    /// addresses hold together; 20 addresses trickling heads under the limit of 64 filled
    /// libmicrohttpd's 1,024 connections, and a new client waited in the listen backlog until
    /// a head deadline freed one (a quarter of other clients' saves timed out). The budget is
    /// kept below three quarters of `HTTPServerOptions.connectionLimit`, so that limit, which
    /// stops accepting altogether, is not reached by slow clients. The deadlines above still
    /// apply to each connection; this only decides who goes first when room runs out.
    public var maxSlowConnections = 512
    /// The slowest a client may read an answer, over each `sendWindow`; 0 disables. Why:
    /// libmicrohttpd's connection timeout restarts with every byte it writes, so a client
    /// reading a large answer (a `/media` file) a few bytes at a time held its connection for
    /// hours. `SO_SNDTIMEO` does not apply to libmicrohttpd's non-blocking sockets, and
    /// `TCP_USER_TIMEOUT` fires only when nothing at all is acknowledged, so a reader opening
    /// its window a little now and then never trips it. The sweep instead reads the socket's
    /// acknowledged byte count (`TCP_INFO`'s `tcpi_bytes_acked`) at the start and end of each
    /// window, the client's real progress rather than what sits in the kernel's send buffer,
    /// and closes the connection when fewer than `minSendBytesPerSecond × window` went
    /// through. 1 KiB/s is far below any real player or browser; a paused player that stops
    /// reading is cut after a window and resumes with a Range request, as after nginx's
    /// `send_timeout`.
    public var minSendBytesPerSecond = 1024
    /// The window `minSendBytesPerSecond` is judged over, in seconds: long enough that a burst
    /// the client's receive buffer absorbed at the start does not buy it much time, short enough
    /// that slow readers do not hold connections long.
    public var sendWindow: TimeInterval = 20
    /// How often the deadlines are checked.
    public var sweepInterval: TimeInterval = 0.5

    public init() {}
}
