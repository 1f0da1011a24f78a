import Foundation

/// How the agent works the queue. From the environment: `PIPER_AGENT_CONCURRENCY`
/// (downloads at a time, default 3), `PIPER_AGENT_POLL_MS` (how often a busy agent checks
/// on its workers, default 2000; also caps the idle rescan interval), `PIPER_AGENT_IDLE_MS` (idle rescan interval,
/// default 30000),
/// the downloader's `PIPER_DOWNLOAD_*` settings and the `PIPER_TEST_PAUSE_AT` test hook.
public struct AgentSettings: Sendable, Equatable {
    public var concurrency = 3
    public var pollInterval: Double = 2
    /// An idle long-running agent rescans at least this often; a change in `downloads/` or
    /// `inbox/` wakes it sooner.
    public var idleRescanInterval: Double = 30
    /// After a failed import, wait this long before handing the inbox to the importer again.
    public var importRetryInterval: Double = 30
    public var download = DownloadSettings()
    public var hooks = AgentTestHooks()

    public init() {}

    public static func from(environment env: [String: String]) -> AgentSettings {
        var s = AgentSettings()
        if let v = env["PIPER_AGENT_CONCURRENCY"].flatMap(Int.init), v >= 1 { s.concurrency = min(v, 32) }
        if let v = env["PIPER_AGENT_POLL_MS"].flatMap(Double.init), v >= 10 {
            s.pollInterval = v / 1000
            s.idleRescanInterval = min(s.idleRescanInterval, s.pollInterval)
        }
        if let v = env["PIPER_AGENT_IDLE_MS"].flatMap(Double.init), v >= 10 { s.idleRescanInterval = v / 1000 }
        s.download = DownloadSettings.from(environment: env)
        s.hooks = AgentTestHooks.from(environment: env)
        return s
    }
}

/// What one agent run did.
public struct AgentSummary: Sendable, Equatable {
    public var landed = 0
    public var failed = 0
    public var imported = 0
    public init() {}
}

/// Finished workers report here; the agent's loop collects them.
///
/// `@unchecked Sendable`: `finished` and `summary` are guarded by `lock`; the semaphore is
/// thread-safe.
final class WorkerTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var finished: [String] = []
    private var summary = AgentSummary()
    let signal = DispatchSemaphore(value: 0)

    func finish(_ id: String, landed: Bool) {
        lock.lock()
        finished.append(id)
        if landed { summary.landed += 1 } else { summary.failed += 1 }
        lock.unlock()
        signal.signal()
    }

    func drain() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let ids = finished
        finished = []
        return ids
    }

    func add(imported: Int) {
        lock.lock(); summary.imported += imported; lock.unlock()
    }

    var totals: AgentSummary {
        lock.lock(); defer { lock.unlock() }
        return summary
    }
}
