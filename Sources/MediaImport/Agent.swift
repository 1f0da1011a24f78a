import Foundation
import PiperCore
import PiperSystem

/// Works the download journal: resumes what a dead process left, downloads queued links
/// (several at a time), lands finished files in the inbox and hands them to the importer.
/// It holds the agent lock for as long as it runs; a second agent just returns.
///
/// Not Sendable: `run` is driven by one thread; download workers get their own journal
/// connections and report back through a `WorkerTracker`.
public final class Agent {
    public enum Outcome: Equatable, Sendable { case finished(AgentSummary), alreadyRunning }

    public let state: StateFolder
    public let settings: AgentSettings
    let importer: (any InboxImporting)?
    /// The library's catalog when it is not `library.sqlite` (a server's shared store): the
    /// followed feeds' `--keep` removes through it.
    public var catalog: (any CatalogStore & Sendable)?
    let progress: ProgressDisplay?
    let log: @Sendable (String) -> Void
    /// Says on the desktop how each job ended (nil: a terminal is watching, or no desktop).
    let notifier: DesktopNotifier?
    /// The address policy every download of this agent is checked against: `piper serve`'s
    /// SSRF guard for the agent inside it, nil for the user's own agent.
    let connectionGuard: CurlConnectionGuard?
    /// Told of each checkpoint reached (the crash tests stop the agent there); nil in normal use.
    let checkpoints: (any AgentCheckpoints)?
    /// Set by whoever runs the agent inside a longer-lived process (the server) to stop it at a
    /// safe point; nil: the agent runs until its process ends.
    let stop: AgentStop?
    let tracker = WorkerTracker()
    let followTicker = FollowTicker()
    /// Where the follows this agent checks are kept: nil for its journal, or the store every
    /// server shares (`piper serve --postgres`). What a check finds is queued into its journal.
    package var followStore: (any FollowStore & Sendable)?
    private var nextImport = Date.distantPast
    /// The importer's latest word on each inbox name (a file may be handled by the run that
    /// ends just before its entry is journaled landed).
    private var lastOutcomes: [String: ImportOutcome] = [:]

    public init(state: StateFolder, settings: AgentSettings, importer: (any InboxImporting)?,
                progress: ProgressDisplay? = nil, notifier: DesktopNotifier? = nil, log: @escaping @Sendable (String) -> Void = { _ in },
                connectionGuard: CurlConnectionGuard? = nil, checkpoints: (any AgentCheckpoints)? = nil, stop: AgentStop? = nil) {
        self.checkpoints = checkpoints
        self.stop = stop
        stop?.onRequest { [signal = tracker.signal] in signal.signal() }
        self.notifier = notifier
        self.connectionGuard = connectionGuard
        self.state = state
        self.settings = settings
        self.importer = importer
        self.progress = progress
        self.log = log
    }

    /// `once`: drain the queue and return. Otherwise run until the process is stopped, or until
    /// `stop` is requested.
    public func run(once: Bool) throws -> Outcome {
        try state.ensure(state.downloads)
        try state.ensure(state.inbox)
        guard let first = try AgentLock(state: state, attempts: 5) else { return .alreadyRunning }
        var lock: AgentLock? = first
        while true {
            let passStarted = Date()
            try withExtendedLifetime(lock) { try work(once: once) }
            // A sharer that found the lock held counted on us: let go, then look again for
            // work that arrived meanwhile (files landed by a sharer count only when new, so a
            // file the importer keeps refusing doesn't keep us here).
            lock = nil
            if stop?.isRequested == true { break }
            let journal = try Journal(state: state)
            var pending = try journal.dueCount()
            if importer != nil { pending += try journal.count(in: [.landed], since: passStarted) }
            guard pending > 0, let again = try AgentLock(state: state) else { break }
            lock = again
        }
        return .finished(tracker.totals)
    }

    /// Works passes until the queue is drained (`once`) or forever. A pass that fails (the
    /// journal is busy or its disk full, a job's step went wrong) is logged and tried again
    /// after a pause: per-job failures end that job, never the agent. Only losing the state
    /// folder stops it.
    private func work(once: Bool) throws {
        var loop = AgentLoop()
        let wakeup = once ? nil : AgentWakeup(journal: state.downloads, inbox: state.inbox)
        var journal: Journal?
        var repaired = false
        while true {
            if stop?.isRequested == true {
                try stopWorkers(&loop)
                return
            }
            do {
                let open = try journal ?? openJournal(repair: !repaired)
                journal = open
                repaired = true
                if try pass(open, loop: &loop, once: once, wakeup: wakeup) { return }
            } catch {
                guard FileManager.default.fileExists(atPath: state.url.path) else {
                    throw AgentError.stateFolderGone(state.url.path, "\(error)")
                }
                log("agent pass failed, trying again in \(String(format: "%.1f", settings.pollInterval)) s: \(error)")
                journal = nil
                _ = tracker.signal.wait(timeout: .now() + settings.pollInterval)
                collectFinished(&loop)
            }
        }
    }

    /// Opens the journal for a run of passes; the first time, repairs what a dead process left
    /// (never again while workers of ours are downloading).
    private func openJournal(repair: Bool) throws -> Journal {
        let journal = try Journal(state: state)
        guard repair else { return journal }
        let resumed = try journal.requeueInterrupted()
        if resumed > 0 { log("resuming \(resumed) interrupted download\(resumed == 1 ? "" : "s")") }
        try removeOrphanedPartials(journal)
        removeOrphanedTemporaries()
        return journal
    }

    /// One pass: land, import, start workers, then wait. Returns true when a `once` agent is done.
    private func pass(_ journal: Journal, loop: inout AgentLoop, once: Bool, wakeup: AgentWakeup?) throws -> Bool {
        try recordFailures(journal, loop: &loop)
        let withSharers = try landDownloaded(journal, excluding: loop.active)
        try importLanded(journal, scanInbox: !once)
        refreshFollowsIfDue(journal, once: once)
        while stop?.isRequested != true, loop.active.count < slots(loop), let entry = try journal.claimNextQueued() {
            loop.active.insert(entry.id)
            startWorker(entry)
        }
        if loop.active.isEmpty {
            let waiting = try journal.dueCount()
            if waiting > withSharers, loop.unrecorded.isEmpty { return false }
            // Jobs put off until later don't hold a one-shot agent: the next agent takes them.
            if once, waiting == 0, loop.unrecorded.isEmpty { return true }
            let deferred = (importer?.deferredFiles ?? 0) > 0 || !loop.unrecorded.isEmpty || withSharers > 0
            var timeout = deferred ? min(settings.idleRescanInterval, settings.pollInterval) : settings.idleRescanInterval
            if let due = try journal.nextLaterTry() { timeout = min(timeout, max(due.timeIntervalSinceNow, 0.05)) }
            if let follow = untilNextFollowCheck(journal, once: once) { timeout = min(timeout, follow) }
            if let wakeup { wakeup.wait(timeout: timeout, stop: stop) } else { _ = tracker.signal.wait(timeout: .now() + timeout) }
            return false
        }
        _ = tracker.signal.wait(timeout: .now() + settings.pollInterval)
        collectFinished(&loop)
        return false
    }

    /// How many downloads may run: the configured number, and one more each time every running
    /// one has been slow for `slowAfter` (a job just started is not slow yet, so extras open one
    /// at a time), up to twice the number: any number of drip-fed links cannot hold up a healthy
    /// one, while the speed floor (`DownloadSettings.stallBytesPerSecond`) frees their slots.
    private func slots(_ loop: AgentLoop) -> Int {
        guard loop.active.count >= settings.concurrency else { return settings.concurrency }
        guard tracker.allSlow(after: settings.slowAfter, rate: settings.slowBytesPerSecond) else { return settings.concurrency }
        return min(loop.active.count + 1, settings.concurrency * 2)
    }

    /// A stop was requested: waits for the running downloads to end (each at its next progress
    /// check, its partial file kept), records what they could not, and puts the interrupted
    /// jobs back in the queue for the next agent.
    private func stopWorkers(_ loop: inout AgentLoop) throws {
        collectFinished(&loop)
        while !loop.active.isEmpty {
            _ = tracker.signal.wait(timeout: .now() + settings.pollInterval)
            collectFinished(&loop)
        }
        let journal = try Journal(state: state)
        try recordFailures(journal, loop: &loop)
        let paused = try journal.requeueInterrupted()
        if paused > 0 { log("stopped; \(paused) download\(paused == 1 ? "" : "s") will resume from \(paused == 1 ? "its" : "their") partial file\(paused == 1 ? "" : "s")") }
    }

    private func collectFinished(_ loop: inout AgentLoop) {
        for (id, result) in tracker.drain() {
            loop.active.remove(id)
            if case .unrecorded(let reason) = result { loop.unrecorded[id] = reason }
        }
    }

    /// Failures a worker could not journal (the disk was full): recorded now, before any new
    /// work, so the journal never says "downloading" for a job that ended.
    private func recordFailures(_ journal: Journal, loop: inout AgentLoop) throws {
        for (id, reason) in loop.unrecorded {
            try journal.markFailed(id, reason: reason)
            loop.unrecorded[id] = nil
            log("recorded the failure of \(id)")
        }
    }

    /// Lands `downloaded` entries no worker is busy with (left by a process that died). Each
    /// entry is its own job: one that can't be landed ends failed with the reason; one that
    /// another process is landing right now (a sharer copying a local file) is left to it.
    /// Returns how many were left to their sharers.
    @discardableResult
    func landDownloaded(_ journal: Journal, excluding active: Set<String>) throws -> Int {
        var leftToSharers = 0
        for entry in try journal.entries(in: .downloaded) where !active.contains(entry.id) {
            let partial = entry.partialFile(in: state.downloads)
            if entry.kind == .file, Date().timeIntervalSince(entry.updated) < settings.sharerGrace {
                leftToSharers += 1
                continue
            }
            guard FileManager.default.fileExists(atPath: partial.path) else {
                try settleVanishedPartial(entry, journal: journal)
                continue
            }
            do {
                let name = try Landing.land(partial, as: entry.file ?? "download", into: state.inbox, hints: entry.importHints) {
                    try journal.setFile(entry.id, $0)
                }
                try journal.markLanded(entry.id, file: name)
                log("landed \(name)")
            } catch LandingError.cannotMove(_, _, ENOENT) {
                try settleVanishedPartial(entry, journal: journal)   // someone else moved it meanwhile
            } catch let error as LandingError {
                try journal.markFailed(entry.id, reason: "Cannot move the download into the inbox: \(error)")
                log("failed to land \(entry.id): \(error)")
            }
        }
        return leftToSharers
    }

    /// A `downloaded` entry whose partial file is gone: renamed into the inbox by a process
    /// that died (or is finishing) before journaling it. Its file is where `setFile` said.
    private func settleVanishedPartial(_ entry: JournalEntry, journal: Journal) throws {
        guard let current = try journal.entry(id: entry.id), current.state == .downloaded else { return }
        if let file = current.file, FileManager.default.fileExists(atPath: state.inbox.appendingPathComponent(file).path) {
            try journal.markLanded(entry.id, file: file)
        } else if Date().timeIntervalSince(current.updated) >= settings.sharerGrace {
            try journal.markFailed(entry.id, reason: "The downloaded file vanished before it reached the inbox")
        }
    }

    /// Hands landed files to the importer (idempotent: it dedups), then marks them imported,
    /// or failed when the importer rejects them. With `scanInbox` (the long-running agent) it
    /// also imports files that reached the inbox some other way.
    func importLanded(_ journal: Journal, scanInbox: Bool = false) throws {
        let landed = try journal.entries(in: .landed)
        guard !landed.isEmpty || (scanInbox && inboxHasFiles()) else { return }
        if !landed.isEmpty { checkpoints?.reached(.landed) }
        guard let importer, Date() >= nextImport else { return }
        do {
            // Hints are looked up as the importer meets each file, so a file landed while
            // it runs still gets its `--into` folder.
            let outcomes = try importer.importInbox(hints: { name in
                (try? journal.entry(inboxFile: name)).flatMap { $0 }.map {
                    $0.importHints ?? ImportHints(sourceURL: $0.url)
                }
            }, landed: { name in
                // Landed by Piper: renamed in whole, so complete without waiting for it to settle.
                (try? journal.entry(inboxFile: name))??.state == .landed
            })
            var current: [String: ImportOutcome] = [:]
            for outcome in outcomes {
                log(outcome.summary)
                current[outcome.fileName] = outcome
            }
            var finished: [JournalOutcome] = []
            let failedRun = outcomes.contains { if case .failed = $0.result { return true }; return false }
            for entry in try journal.entries(in: .landed) {
                let name = entry.file ?? ""
                let stillThere = !name.isEmpty && FileManager.default.fileExists(atPath: state.inbox.appendingPathComponent(name).path)
                // An earlier run's word counts only for a file that has left the inbox.
                let outcome = current[name] ?? (stillThere ? nil : lastOutcomes[name])
                switch ImportVerdict(outcome, stillInInbox: stillThere) {
                case .imported(let path): finished.append(JournalOutcome(id: entry.id, state: .imported, libraryPath: path, note: outcome?.refusedEntriesNote))
                case .duplicate(let path): finished.append(JournalOutcome(id: entry.id, state: .duplicate, libraryPath: path, note: outcome?.refusedEntriesNote))
                case .rejected(let reason):
                    try journal.markFailed(entry.id, reason: reason)
                    notifier?.notify("Piper: not imported", "\(name): \(reason)")
                case .noSpace(let reason):
                    try journal.markFailed(entry.id, reason: reason)
                    tracker.countFailure()
                    notifier?.notify("Piper: not imported", "\(name): \(reason)")
                case .retryLater: break
                }
            }
            lastOutcomes.merge(current) { _, new in new }
            try journal.markImported(finished)
            for outcome in finished {
                let path = outcome.libraryPath ?? "the library"
                notifier?.notify("Piper", outcome.state == .duplicate ? Messages.alreadyInLibrary(path) : Messages.inLibrary(path))
            }
            tracker.add(imported: finished.filter { $0.state == .imported }.count,
                        duplicates: finished.filter { $0.state == .duplicate }.count)
            if failedRun { nextImport = Date().addingTimeInterval(settings.importRetryInterval) }
        } catch {
            nextImport = Date().addingTimeInterval(settings.importRetryInterval)
            log("import failed, will retry: \(error)")
        }
    }

    private func inboxHasFiles() -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: state.inbox.path)) ?? []
        return names.contains { !LibraryImporter.isTemporaryName($0) }
    }
}

/// The agent loop's bookkeeping across passes.
struct AgentLoop {
    /// Entries a worker thread is busy with.
    var active = Set<String>()
    /// Failures to record in the journal (id → reason), left by workers that could not.
    var unrecorded: [String: String] = [:]
}
