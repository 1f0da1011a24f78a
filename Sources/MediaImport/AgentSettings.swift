import Foundation
import PiperCore

/// How the agent works the queue. Each number is a `Tunable` (PiperCore's `Tunables.all`, the
/// README's settings table): set in `config.json` (`agent.concurrency`, …) or overridden by its
/// environment variable (`PIPER_AGENT_CONCURRENCY`, …); the downloader's are `download.*`.
public struct AgentSettings: Sendable, Equatable {
    public var concurrency = 3
    public var pollInterval: Double = 2
    /// An idle long-running agent rescans at least this often; a change in `downloads/` or
    /// `inbox/` wakes it sooner.
    public var idleRescanInterval: Double = 30
    /// After a failed import, wait this long before handing the inbox to the importer again.
    public var importRetryInterval: Double = 30
    /// A download is slow once it has fetched less than `slowBytesPerSecond` for `slowAfter`
    /// seconds; when every running one is slow, one extra slot opens for the next job, so a
    /// few drip-fed links can't hold up a healthy one.
    public var slowAfter: Double = 20
    public var slowBytesPerSecond: Double = 10_000
    /// A local file a sharer journaled `downloaded` is landed by the sharer itself; the agent
    /// lands it on the sharer's behalf only once it has sat this long (the sharer died).
    public var sharerGrace: Double = 30
    /// How long a check of a followed feed keeps other agents and servers off it (a check
    /// that dies holds the feed this long): `FollowRefresher.lease`.
    public var followLease: Double = 120
    public var download = DownloadSettings()

    public init() {}

    /// The settings the environment alone gives (no config file).
    public static func from(environment env: [String: String]) -> AgentSettings {
        from(TunableValues(environment: env))
    }

    /// The settings in effect: the config file's values under their environment overrides.
    public static func from(_ values: TunableValues) -> AgentSettings {
        var s = AgentSettings()
        if let v = values.int("agent.concurrency") { s.concurrency = v }
        if let v = values.double("agent.pollMs") {
            s.pollInterval = v / 1000
            s.idleRescanInterval = min(s.idleRescanInterval, s.pollInterval)
        }
        if let v = values.double("agent.idleMs") { s.idleRescanInterval = v / 1000 }
        if let v = values.double("agent.slowSeconds") { s.slowAfter = v }
        if let v = values.double("agent.slowRate") { s.slowBytesPerSecond = v }
        if let v = values.double("agent.followLeaseSeconds") { s.followLease = v }
        s.download = DownloadSettings.from(values)
        return s
    }
}

/// What one agent run did.
public struct AgentSummary: Sendable, Equatable {
    public var landed = 0
    public var failed = 0
    public var imported = 0
    /// Landed files whose content was already in the library.
    public var duplicates = 0
    /// Jobs put off until later because their server could not be reached.
    public var postponed = 0
    public init() {}
}

/// How a worker's job ended, for the agent's loop.
enum WorkerResult: Sendable, Equatable {
    case landed
    case failed
    /// The server could not be reached: queued again, due later.
    case later
    /// Failed, but the journal could not record it (a full disk): the loop records it later.
    case unrecorded(reason: String)
    /// Stopped with the agent (`AgentStop`): the partial file kept for the next agent.
    case paused
}

/// Finished workers report here, and running ones their progress; the agent's loop collects
/// both.
///
/// `@unchecked Sendable`: `finished`, `running` and `summary` are guarded by `lock`; the
/// semaphore is thread-safe.
final class WorkerTracker: @unchecked Sendable {
    private struct Running {
        var bytes: Int64 = 0
        var windowStart: Date
        var windowBytes: Int64 = 0
        var slowSince: Date?
    }
    private let lock = NSLock()
    private var finished: [(id: String, result: WorkerResult)] = []
    private var running: [String: Running] = [:]
    private var summary = AgentSummary()
    let signal = DispatchSemaphore(value: 0)

    func start(_ id: String, now: Date = Date()) {
        lock.lock(); running[id] = Running(windowStart: now); lock.unlock()
    }

    func progress(_ id: String, bytes: Int64) {
        lock.lock(); running[id]?.bytes = bytes; lock.unlock()
    }

    func finish(_ id: String, result: WorkerResult) {
        lock.lock()
        finished.append((id, result))
        running[id] = nil
        switch result {
        case .landed: summary.landed += 1
        case .later: summary.postponed += 1
        case .failed, .unrecorded: summary.failed += 1
        case .paused: break
        }
        lock.unlock()
        signal.signal()
    }

    func drain() -> [(id: String, result: WorkerResult)] {
        lock.lock(); defer { lock.unlock() }
        let done = finished
        finished = []
        return done
    }

    /// True when there are running downloads and every one has fetched less than `rate`
    /// bytes a second for at least `after` seconds. Rates are measured over windows of a
    /// quarter of `after` (at most 10 s), refreshed by each call.
    func allSlow(after: Double, rate: Double, now: Date = Date()) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !running.isEmpty else { return false }
        let window = min(10, max(after / 4, 0.1))
        var all = true
        for (id, var job) in running {
            let elapsed = now.timeIntervalSince(job.windowStart)
            if elapsed >= window {
                let speed = Double(job.bytes - job.windowBytes) / elapsed
                job.slowSince = speed < rate ? (job.slowSince ?? job.windowStart) : nil
                job.windowStart = now
                job.windowBytes = job.bytes
                running[id] = job
            }
            if let since = job.slowSince, now.timeIntervalSince(since) >= after { continue }
            all = false
        }
        return all
    }

    /// A job that failed outside a worker (an import on a full disk).
    func countFailure() {
        lock.lock()
        summary.failed += 1
        lock.unlock()
    }

    func add(imported: Int, duplicates: Int) {
        lock.lock()
        summary.imported += imported
        summary.duplicates += duplicates
        lock.unlock()
    }

    var totals: AgentSummary {
        lock.lock(); defer { lock.unlock() }
        return summary
    }
}
