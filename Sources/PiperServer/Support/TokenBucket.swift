import Foundation

/// A token bucket as a pure value: `capacity` tokens at most, refilled at `ratePerSecond`.
/// `take(at:)` spends one token or says how long until one is available.
public struct TokenBucket: Sendable, Equatable {
    public let capacity: Double
    public let ratePerSecond: Double
    public private(set) var tokens: Double
    public private(set) var updated: TimeInterval

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Denied; a token will be available after this many seconds.
        case denied(retryAfter: TimeInterval)
    }

    public init(capacity: Double, ratePerSecond: Double, now: TimeInterval) {
        self.capacity = capacity
        self.ratePerSecond = ratePerSecond
        self.tokens = capacity
        self.updated = now
    }

    public mutating func take(at now: TimeInterval) -> Decision {
        refill(at: now)
        if tokens >= 1 {
            tokens -= 1
            return .allowed
        }
        return .denied(retryAfter: ratePerSecond > 0 ? (1 - tokens) / ratePerSecond : .infinity)
    }

    /// True when the bucket has refilled completely (and can be forgotten).
    public func isFull(at now: TimeInterval) -> Bool {
        var copy = self
        copy.refill(at: now)
        return copy.tokens >= capacity
    }

    private mutating func refill(at now: TimeInterval) {
        let elapsed = max(0, now - updated)
        tokens = min(capacity, tokens + elapsed * ratePerSecond)
        updated = now
    }
}

/// Rate limits per client (an address, a device's name): one token bucket each. `take` spends
/// one of `client`'s tokens or says how long until one is available.
public protocol RateLimiting: Sendable {
    func take(client: String, now: TimeInterval) -> TokenBucket.Decision
}

/// Save rate limits per client address: one `TokenBucket` each, in memory (one server's own).
///
/// `@unchecked Sendable`: `buckets` is only touched while holding `lock`.
public final class RateLimiter: RateLimiting, @unchecked Sendable {
    public let perMinute: Double
    public let burst: Double
    private let lock = NSLock()
    private var buckets: [String: TokenBucket] = [:]
    private var lastPrune: TimeInterval = 0

    /// `perMinute` tokens a minute, bursts of up to `burst`. `perMinute <= 0` disables limiting.
    public init(perMinute: Double, burst: Double) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
    }

    public var isEnabled: Bool { perMinute > 0 }

    public func take(client: String, now: TimeInterval) -> TokenBucket.Decision {
        guard isEnabled else { return .allowed }
        return lock.withLock {
            if now - lastPrune > 60 { prune(now) }
            var bucket = buckets[client] ?? TokenBucket(capacity: burst, ratePerSecond: perMinute / 60, now: now)
            let decision = bucket.take(at: now)
            buckets[client] = bucket
            return decision
        }
    }

    /// Forgets full buckets so the table stays as small as the set of recent clients.
    private func prune(_ now: TimeInterval) {
        lastPrune = now
        buckets = buckets.filter { !$0.value.isFull(at: now) }
    }
}
