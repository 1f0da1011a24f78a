import Foundation

/// Everything `piper serve` can be told, with the documented defaults.
public struct BackendConfiguration: Sendable {
    public var http = HTTPServerOptions()
    /// The base of returned URLs; nil means `http://host:port` of this server.
    public var publicURL: String?
    /// How long a save lives, in seconds.
    public var ttl: TimeInterval = 3600
    /// Saves per minute per client address once the burst is spent; 0 disables the limit.
    public var savesPerMinute: Double = 30
    /// Saves a client may make at once before the per-minute rate applies: enough for a person
    /// sharing a reading list in one go (the old 10 stopped a loop of 18 shares at the 14th).
    public var saveBurst: Double = 60
    /// Peers (numeric addresses, e.g. a load balancer) whose `X-Forwarded-For` names the real
    /// client for rate limiting. Empty: the TCP peer is the client.
    public var trustedProxies: Set<String> = []
    /// How long an expired save's source URL is kept (and nothing else of it), so its expired
    /// page can still link to the original.
    public var sourceGrace: TimeInterval = 24 * 3600
    /// How often expired rows are deleted; nil means ttl/4, between 1 s and 60 s.
    public var sweepInterval: TimeInterval?
    /// Rendered pages kept in memory (0 disables the cache).
    public var pageCacheSize = 1024
    public var clock: @Sendable () -> Date = { Date() }
    /// `POST /share`, pairing and the web app run through these; nil leaves them off.
    public var share: ShareServices?
    /// `--save-requires-token`: `POST /save` needs a credential too.
    public var saveRequiresToken = false
    /// Where rate-limit buckets live when several servers share them (`--postgres`); nil keeps
    /// each server's buckets in its memory.
    public var sharedRateLimits: PostgresRateLimits?
    /// Each long-lived part's health for `/healthz` (`ServerApp` sets it); nil: only the store's.
    public var parts: (@Sendable () -> [PartReport])?

    /// The port `piper serve` listens on unless told otherwise.
    public static let defaultPort: UInt16 = 8080

    public init() {}

    /// The limiter for `scope` ("save", "share"): shared through `sharedRateLimits` when set.
    func limiter(_ scope: String, perMinute: Double, burst: Double) -> any RateLimiting {
        let local = RateLimiter(perMinute: perMinute, burst: burst)
        return sharedRateLimits.map { $0.limiter(scope: scope, local: local) } ?? local
    }

    var effectiveSweepInterval: TimeInterval {
        sweepInterval ?? min(60, max(1, ttl / 4))
    }
}

/// A value set once after startup and read by request handlers (the public URL is only known
/// once the port is bound).
///
/// `@unchecked Sendable`: `value` is only touched while holding `lock`.
final class LateValue: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""

    func set(_ newValue: String) { lock.withLock { value = newValue } }
    func get() -> String { lock.withLock { value } }
}
