import Foundation
import PiperSystem

/// Rate-limit buckets in PostgreSQL, shared by every `piper serve` on the database, so a client
/// gets one budget however the balancer spreads its requests. The same token bucket as
/// `RateLimiter` (a server on SQLite keeps that one, in memory): one row per scope and client
/// holding its tokens and when they were counted, refilled and spent in one upsert, atomic
/// under the row's lock.
public final class PostgresRateLimits: Sendable {
    private let database: PostgresDatabase
    private let table = "piper_rate_limits"

    /// The buckets in `database`'s `piper_rate_limits` (`PostgresDatabase+Schema`).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// A limiter for `scope` with `local`'s rate and burst. While the database cannot answer,
    /// it counts in `local` (this server's own buckets) rather than refusing every request.
    public func limiter(scope: String, local: RateLimiter) -> any RateLimiting {
        SharedLimiter(limits: self, scope: scope, local: local)
    }

    /// Spends one token of `bucket`: allowed, or denied with the tokens left after refilling.
    func take(bucket: String, capacity: Double, ratePerSecond: Double, now: TimeInterval) throws -> TokenBucket.Decision {
        let refilled = "LEAST($2::double precision, \(table).tokens + GREATEST(0, $4::double precision - \(table).updated) * $3::double precision)"
        let row = try database.withConnection { conn in
            try conn.execute("""
                INSERT INTO \(table) AS \(table) (bucket, tokens, updated, allowed) VALUES ($1, $2::double precision - 1, $4, true)
                ON CONFLICT (bucket) DO UPDATE SET
                    tokens = \(refilled) - CASE WHEN \(refilled) >= 1 THEN 1 ELSE 0 END,
                    updated = GREATEST(\(table).updated, $4::double precision),
                    allowed = \(refilled) >= 1
                RETURNING allowed, tokens
                """, [bucket, String(capacity), String(ratePerSecond), String(now)]).onlyRow()
        }
        if try row.bool("allowed") { return .allowed }
        let tokens = try row.double("tokens")
        return .denied(retryAfter: ratePerSecond > 0 ? (1 - tokens) / ratePerSecond : .infinity)
    }

    /// Deletes `scope`'s buckets that have refilled completely (they are as good as absent).
    func prune(scope: String, capacity: Double, ratePerSecond: Double, now: TimeInterval) throws {
        try database.withConnection { conn in
            try conn.execute("DELETE FROM \(table) WHERE bucket LIKE $1 AND tokens + GREATEST(0, $2::double precision - updated) * $3::double precision >= $4::double precision",
                             [scope + ":%", String(now), String(ratePerSecond), String(capacity)])
        }
    }
}

/// One scope's limiter over `PostgresRateLimits`.
///
/// `@unchecked Sendable`: `lastPrune` is only touched while holding `lock`; the rest is immutable.
final class SharedLimiter: RateLimiting, @unchecked Sendable {
    let limits: PostgresRateLimits
    let scope: String
    let local: RateLimiter
    private let lock = NSLock()
    private var lastPrune: TimeInterval = 0

    init(limits: PostgresRateLimits, scope: String, local: RateLimiter) {
        self.limits = limits
        self.scope = scope
        self.local = local
    }

    func take(client: String, now: TimeInterval) -> TokenBucket.Decision {
        guard local.isEnabled else { return .allowed }
        let rate = local.perMinute / 60
        let prune = lock.withLock {
            guard now - lastPrune > 60 else { return false }
            lastPrune = now
            return true
        }
        if prune { try? limits.prune(scope: scope, capacity: local.burst, ratePerSecond: rate, now: now) }
        do {
            return try limits.take(bucket: scope + ":" + client, capacity: local.burst, ratePerSecond: rate, now: now)
        } catch {
            return local.take(client: client, now: now)
        }
    }
}
