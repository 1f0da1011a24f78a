import Foundation
import PiperCore

/// Knobs of the downloader. Defaults suit real use; each number a user may change is a
/// `Tunable` (`download.*` in `config.json`, or its `PIPER_DOWNLOAD_*` variable; the README's
/// settings table lists them), so tests and operators can make it fast or patient.
public struct DownloadSettings: Sendable, Equatable {
    /// Failed attempts in a row (without progress), and restarts from byte 0, before giving up.
    public var attempts = 5
    /// Every request of one job, progress or not: a server that keeps sending part of the file
    /// can't keep a download going forever.
    public var maxAttempts = 50
    /// One request may take at most this long (seconds), however steadily bytes arrive.
    public var attemptTimeout: Double = 6 * 3600
    /// One job, all its attempts and waits, may take at most this long (seconds).
    public var jobTimeout: Double = 24 * 3600
    /// The largest file Piper downloads, with or without a `Content-Length`.
    public var maxBytes: Int64 = 8 << 30
    /// The bytes fetched for one job may be at most this multiple of its size (plus 1 MiB),
    /// whatever mix of resumes and restarts got them.
    public var fetchBudgetFactor: Int64 = 3
    /// A job whose server could not be reached is tried again later: after `laterBase`
    /// seconds, doubling each time up to `laterMax`, at most `laterLimit` times.
    public var laterBase: Double = 300
    public var laterMax: Double = 86_400
    public var laterLimit = 12
    public var retryBaseDelay: Double = 1.0
    public var retryMaxDelay: Double = 60
    /// The longest `Retry-After` we honour; longer waits are capped.
    public var retryAfterCap: Double = 600
    /// The speed floor: a transfer slower than `stallBytesPerSecond` for `stallSeconds` has
    /// stalled. It gives its slot up to the next job (a drip-fed link must not hold the queue)
    /// and is tried again after `stallRetryDelay`, resuming its partial file. 1 KB/s over 20 s:
    /// no real media server is that slow for that long, and three drips queued ahead of a healthy
    /// link give their slots up well within a minute.
    public var stallSeconds = 20
    public var stallBytesPerSecond = 1024
    public var stallRetryDelay: Double = 60
    public var connectTimeout = 30
    public var userAgent = "Piper/0.1 (media download)"

    public init() {}

    /// How long to wait before the `n`th later try (1-based).
    public func laterDelay(_ n: Int) -> Double {
        min(laterBase * pow(2, Double(max(n - 1, 0))), laterMax)
    }

    /// The most bytes one job may fetch for a file of `size` bytes.
    public func fetchBudget(forSize size: Int64) -> Int64 {
        let (product, overflow) = size.multipliedReportingOverflow(by: fetchBudgetFactor)
        return overflow ? .max : product + (1 << 20)
    }

    /// The settings the environment alone gives (no config file).
    public static func from(environment env: [String: String]) -> DownloadSettings {
        from(TunableValues(environment: env))
    }

    /// The settings in effect: the config file's values under their environment overrides.
    public static func from(_ values: TunableValues) -> DownloadSettings {
        var s = DownloadSettings()
        if let v = values.int("download.attempts") { s.attempts = v }
        if let v = values.double("download.retryBaseMs") { s.retryBaseDelay = v / 1000 }
        if let v = values.double("download.retryMaxMs") { s.retryMaxDelay = v / 1000 }
        if let v = values.int("download.stallSeconds") { s.stallSeconds = v }
        if let v = values.int("download.minRate") { s.stallBytesPerSecond = v }
        if let v = values.double("download.stallRetrySeconds") { s.stallRetryDelay = v }
        if let v = values.int("download.connectTimeout") { s.connectTimeout = v }
        if let v = values.int("download.maxAttempts") { s.maxAttempts = v }
        if let v = values.double("download.attemptTimeout") { s.attemptTimeout = v }
        if let v = values.double("download.jobTimeout") { s.jobTimeout = v }
        if let v = values.double("download.maxBytes") { s.maxBytes = Int64(v) }
        if let v = values.double("download.laterSeconds") { s.laterBase = v }
        if let v = values.double("download.laterMaxSeconds") { s.laterMax = v }
        if let v = values.int("download.laterLimit") { s.laterLimit = v }
        return s
    }
}

/// Exponential backoff with jitter, honouring `Retry-After`. Pure: the caller sleeps.
public struct RetryPolicy: Sendable, Equatable {
    public var baseDelay: Double
    public var maxDelay: Double
    public var retryAfterCap: Double

    public init(settings: DownloadSettings) {
        baseDelay = settings.retryBaseDelay
        maxDelay = settings.retryMaxDelay
        retryAfterCap = settings.retryAfterCap
    }

    /// The wait before attempt `failedAttempts + 1`. `jitter` in 0...1 spreads retries
    /// (0.5 = the nominal delay; the range is ×0.5 … ×1.5).
    public func delay(afterFailedAttempts failedAttempts: Int, retryAfter: String?, jitter: Double, now: Date = Date()) -> Double {
        if let retryAfter, let seconds = Self.parseRetryAfter(retryAfter, now: now) {
            return min(max(seconds, 0), retryAfterCap)
        }
        let exponent = Double(max(failedAttempts - 1, 0))
        let nominal = min(baseDelay * pow(2, exponent), maxDelay)
        return nominal * (0.5 + min(max(jitter, 0), 1))
    }

    /// `Retry-After` is either delta-seconds or an HTTP date.
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return date.timeIntervalSince(now)
    }
}
