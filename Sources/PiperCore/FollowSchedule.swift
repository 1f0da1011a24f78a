import Foundation

/// When a followed feed is checked next: hourly by default, never sooner than the feed itself
/// asks (`<ttl>`, `sy:updatePeriod`) or a `Retry-After` says, further apart after each failure
/// in a row (up to a day), and spread by a little jitter so many feeds followed at once are not
/// all checked in the same minute. Pure: the caller passes the clock and the random draw.
public struct FollowSchedule: Sendable, Equatable {
    /// The usual wait between checks, in seconds.
    public var interval: TimeInterval = 3600
    /// The jitter, as a fraction of the wait either way.
    public var jitter: Double = 0.1
    /// The first wait after a failure; it doubles with each further one.
    public var firstBackoff: TimeInterval = 900
    /// The longest wait, failures or not (a feed that asks for longer is still honoured).
    public var maxBackoff: TimeInterval = 86_400

    public init() {}

    /// The next check after one ended at `now`. `failures` counts the failed checks in a row
    /// (0 after a good one); `random` is a draw from 0..<1.
    public func nextCheck(after now: Date, feedInterval: TimeInterval?, failures: Int, retryAfter: TimeInterval? = nil,
                          random: Double) -> Date {
        var wait = max(interval, feedInterval ?? 0)
        if failures > 0 {
            wait = min(maxBackoff, firstBackoff * pow(2, Double(min(failures, 30) - 1)))
        }
        wait *= 1 + jitter * (2 * min(max(random, 0), 1) - 1)
        if let retryAfter { wait = max(wait, retryAfter) }
        return now.addingTimeInterval(wait)
    }
}
