import Foundation

/// A number that tunes the download agent or the downloader: its key in `config.json`, the
/// environment variable that overrides it, its bounds and default, and what it does.
/// `Tunables.all` is the one table of them: the config file, `piper config`, the environment
/// and the README's settings table are all read from it.
public struct Tunable: Sendable, Equatable {
    /// Whole numbers only, or any number.
    public enum Kind: Sendable, Equatable { case integer, decimal }

    /// The key in `config.json` and for `piper config set` (`agent.concurrency`).
    public let key: String
    /// The environment variable that overrides the file (`PIPER_AGENT_CONCURRENCY`).
    public let environment: String
    public let kind: Kind
    /// The smallest and largest value taken.
    public let range: ClosedRange<Double>
    public let defaultValue: Double
    /// The unit values are in: "", "ms", "s", "bytes", "bytes/s".
    public let unit: String
    /// What it does, one sentence.
    public let help: String

    init(_ key: String, _ environment: String, _ kind: Kind, _ range: ClosedRange<Double>, _ defaultValue: Double,
         _ unit: String, _ help: String) {
        self.key = key
        self.environment = environment
        self.kind = kind
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
        self.help = help
    }

    /// The value `text` says, or the sentence that says why it is refused.
    public func parse(_ text: String) -> Result<Double, TunableError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), value.isFinite else {
            return .failure(TunableError(message: "\(key) takes a number\(unit.isEmpty ? "" : " (\(unit))"), not '\(text)'"))
        }
        if kind == .integer, value.rounded() != value {
            return .failure(TunableError(message: "\(key) takes a whole number, not '\(text)'"))
        }
        guard range.contains(value) else {
            return .failure(TunableError(message: "\(key) must be between \(Self.text(range.lowerBound)) and \(Self.text(range.upperBound)), not '\(text)'"))
        }
        return .success(value)
    }

    /// A value as the table and `piper config` print it: whole numbers without a fraction.
    public static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Why a tunable's value was refused.
public struct TunableError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Every tunable, in the order the README lists them.
public enum Tunables {
    public static let all: [Tunable] = [
        Tunable("agent.concurrency", "PIPER_AGENT_CONCURRENCY", .integer, 1...32, 3, "",
                "Downloads the agent runs at a time."),
        Tunable("agent.pollMs", "PIPER_AGENT_POLL_MS", .decimal, 10...600_000, 2000, "ms",
                "How often a busy agent checks on its workers; also caps the idle rescan interval."),
        Tunable("agent.idleMs", "PIPER_AGENT_IDLE_MS", .decimal, 10...3_600_000, 30_000, "ms",
                "How often an idle long-running agent rescans (a change in downloads/ or inbox/ wakes it sooner)."),
        Tunable("agent.slowSeconds", "PIPER_AGENT_SLOW_SECONDS", .decimal, 0.001...86_400, 20, "s",
                "When every running download has been slow this long, one more starts beside them."),
        Tunable("agent.slowRate", "PIPER_AGENT_SLOW_RATE", .decimal, 0...1e12, 10_000, "bytes/s",
                "Below this a running download counts as slow (for agent.slowSeconds)."),
        Tunable("agent.followLeaseSeconds", "PIPER_AGENT_FOLLOW_LEASE_SECONDS", .decimal, 1...86_400, 120, "s",
                "How long a check of a followed feed keeps other agents and servers off it; a check that dies holds the feed this long."),
        Tunable("download.attempts", "PIPER_DOWNLOAD_ATTEMPTS", .integer, 1...1000, 5, "",
                "Failed attempts in a row (without progress), and restarts from byte 0, before a download fails."),
        Tunable("download.maxAttempts", "PIPER_DOWNLOAD_MAX_ATTEMPTS", .integer, 1...100_000, 50, "",
                "Requests one job may make in all, progress or not."),
        Tunable("download.retryBaseMs", "PIPER_DOWNLOAD_RETRY_BASE_MS", .decimal, 0...86_400_000, 1000, "ms",
                "The first wait before a retry; it doubles with each failure (with jitter)."),
        Tunable("download.retryMaxMs", "PIPER_DOWNLOAD_RETRY_MAX_MS", .decimal, 0...86_400_000, 60_000, "ms",
                "The longest wait between retries."),
        Tunable("download.connectTimeout", "PIPER_DOWNLOAD_CONNECT_TIMEOUT", .integer, 1...3600, 30, "s",
                "How long a connection may take to open."),
        Tunable("download.minRate", "PIPER_DOWNLOAD_MIN_RATE", .integer, 1...1_000_000_000, 1024, "bytes/s",
                "The speed floor: a transfer slower than this for download.stallSeconds gives its slot up."),
        Tunable("download.stallSeconds", "PIPER_DOWNLOAD_STALL_SECONDS", .integer, 1...86_400, 20, "s",
                "How long a transfer may stay below the speed floor."),
        Tunable("download.stallRetrySeconds", "PIPER_DOWNLOAD_STALL_RETRY_SECONDS", .decimal, 0...86_400, 60, "s",
                "When a stalled transfer is tried again (resuming its partial file)."),
        Tunable("download.attemptTimeout", "PIPER_DOWNLOAD_ATTEMPT_TIMEOUT", .decimal, 0.001...31_536_000, 21_600, "s",
                "The longest one request may take, however steadily bytes arrive."),
        Tunable("download.jobTimeout", "PIPER_DOWNLOAD_JOB_TIMEOUT", .decimal, 0.001...31_536_000, 86_400, "s",
                "The longest one job may take, all its attempts and waits."),
        Tunable("download.maxBytes", "PIPER_DOWNLOAD_MAX_BYTES", .integer, 1...1_125_899_906_842_624, 8_589_934_592, "bytes",
                "The largest file Piper downloads."),
        Tunable("download.laterSeconds", "PIPER_DOWNLOAD_LATER_SECONDS", .decimal, 0.001...31_536_000, 300, "s",
                "When a job whose server could not be reached is tried again; the wait doubles each time."),
        Tunable("download.laterMaxSeconds", "PIPER_DOWNLOAD_LATER_MAX_SECONDS", .decimal, 0.001...31_536_000, 86_400, "s",
                "The longest of those waits."),
        Tunable("download.laterLimit", "PIPER_DOWNLOAD_LATER_LIMIT", .integer, 0...10_000, 12, "",
                "How many times an unreachable server is tried again later before the job fails."),
    ]

    /// The tunable with this config key.
    public static func named(_ key: String) -> Tunable? { all.first { $0.key == key } }

    /// Every config key.
    public static var keys: [String] { all.map(\.key) }

    /// The README's settings table.
    public static func markdownTable() -> String {
        var lines = ["| config key | environment | default | what it does |", "|---|---|---|---|"]
        for tunable in all {
            let unit = tunable.unit.isEmpty ? "" : " \(tunable.unit)"
            lines.append("| `\(tunable.key)` | `\(tunable.environment)` | \(Tunable.text(tunable.defaultValue))\(unit) | \(tunable.help) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The tunables in effect: each one's environment variable, else its key in the config file,
/// else nothing (the consumer's default, which is the table's). A value outside its bounds is
/// not taken; `notices` says so, naming where it came from.
public struct TunableValues: Sendable, Equatable {
    public private(set) var values: [String: Double] = [:]
    /// Where each value came from: the variable's name or "config.json".
    public private(set) var sources: [String: String] = [:]
    /// One sentence per refused value.
    public private(set) var notices: [String] = []

    public init(file: [String: Double] = [:], environment: [String: String] = [:]) {
        for tunable in Tunables.all {
            if let text = environment[tunable.environment], !text.isEmpty {
                switch tunable.parse(text) {
                case .success(let value):
                    values[tunable.key] = value
                    sources[tunable.key] = tunable.environment
                    continue
                case .failure(let error):
                    notices.append("Warning: \(tunable.environment): \(error.message); it is ignored.")
                }
            }
            if let value = file[tunable.key] {
                switch tunable.parse(Tunable.text(value)) {
                case .success(let value):
                    values[tunable.key] = value
                    sources[tunable.key] = "config.json"
                case .failure(let error):
                    notices.append("Warning: config.json: \(error.message); it is ignored.")
                }
            }
        }
    }

    mutating func add(notice: String) { notices.append(notice) }

    /// The value set for `key`, if any.
    public func double(_ key: String) -> Double? { values[key] }
    /// The value set for `key` as a whole number, if any.
    public func int(_ key: String) -> Int? { values[key].map { Int($0) } }
    /// The value in effect: the one set, else the table's default.
    public func effective(_ key: String) -> Double { values[key] ?? Tunables.named(key)?.defaultValue ?? 0 }
}
