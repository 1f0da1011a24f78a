import Foundation
import PiperCore

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
    let progress: ProgressDisplay?
    let log: @Sendable (String) -> Void
    let tracker = WorkerTracker()
    private var nextImport = Date.distantPast
    /// The importer's latest word on each inbox name (a file may be handled by the run that
    /// ends just before its entry is journaled landed).
    private var lastOutcomes: [String: ImportOutcome] = [:]

    public init(state: StateFolder, settings: AgentSettings, importer: (any InboxImporting)?,
                progress: ProgressDisplay? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.state = state
        self.settings = settings
        self.importer = importer
        self.progress = progress
        self.log = log
    }

    /// `once`: drain the queue and return. Otherwise run until the process is stopped.
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
            let journal = try Journal(state: state)
            var pending = try journal.count(in: [.queued, .downloaded])
            if importer != nil { pending += try journal.count(in: [.landed], since: passStarted) }
            guard pending > 0, let again = try AgentLock(state: state) else { break }
            lock = again
        }
        return .finished(tracker.totals)
    }

    private func work(once: Bool) throws {
        let journal = try Journal(state: state)
        let resumed = try journal.requeueInterrupted()
        if resumed > 0 { log("resuming \(resumed) interrupted download\(resumed == 1 ? "" : "s")") }
        try removeOrphanedPartials(journal)
        var active = Set<String>()
        let wakeup = once ? nil : AgentWakeup(watching: [state.downloads, state.inbox])
        while true {
            try landDownloaded(journal, excluding: active)
            try importLanded(journal, scanInbox: !once)
            while active.count < settings.concurrency, let entry = try journal.claimNextQueued() {
                active.insert(entry.id)
                startWorker(entry)
            }
            if active.isEmpty {
                let waiting = try journal.count(in: [.queued, .downloaded])
                if waiting > 0 { continue }
                if once { return }
                wakeup?.wait(timeout: settings.idleRescanInterval)
                continue
            }
            _ = tracker.signal.wait(timeout: .now() + settings.pollInterval)
            for id in tracker.drain() { active.remove(id) }
        }
    }

    /// Lands `downloaded` entries no worker is busy with (left by a process that died).
    func landDownloaded(_ journal: Journal, excluding active: Set<String>) throws {
        for entry in try journal.entries(in: .downloaded) where !active.contains(entry.id) {
            let partial = entry.partialFile(in: state.downloads)
            guard FileManager.default.fileExists(atPath: partial.path) else {
                // Renamed into the inbox by a process that died before journaling it.
                try journal.markLanded(entry.id, file: entry.file ?? "")
                continue
            }
            let name = try Landing.land(partial, as: entry.file ?? "download", into: state.inbox, hints: entry.importHints) {
                try journal.setFile(entry.id, $0)
            }
            try journal.markLanded(entry.id, file: name)
            log("landed \(name)")
        }
    }

    /// Hands landed files to the importer (idempotent: it dedups), then marks them imported,
    /// or failed when the importer rejects them. With `scanInbox` (the long-running agent) it
    /// also imports files that reached the inbox some other way.
    func importLanded(_ journal: Journal, scanInbox: Bool = false) throws {
        let landed = try journal.entries(in: .landed)
        guard !landed.isEmpty || (scanInbox && inboxHasFiles()) else { return }
        if !landed.isEmpty { settings.hooks.pause(at: "landed", log: log) }
        guard let importer, Date() >= nextImport else { return }
        do {
            // Hints are looked up as the importer meets each file, so a file landed while
            // it runs still gets its `--into` folder.
            let outcomes = try importer.importInbox(hints: { name in
                (try? journal.entry(inboxFile: name)).flatMap { $0 }.map { ImportHints(folder: $0.folder, sourceURL: $0.url) }
            })
            var current: [String: ImportOutcome] = [:]
            for outcome in outcomes {
                log(outcome.summary)
                current[outcome.fileName] = outcome
            }
            var imported: [String] = []
            let failedRun = outcomes.contains { if case .failed = $0.result { return true }; return false }
            for entry in try journal.entries(in: .landed) {
                let name = entry.file ?? ""
                let stillThere = !name.isEmpty && FileManager.default.fileExists(atPath: state.inbox.appendingPathComponent(name).path)
                // An earlier run's word counts only for a file that has left the inbox.
                let outcome = current[name] ?? (stillThere ? nil : lastOutcomes[name])
                switch ImportVerdict(outcome, stillInInbox: stillThere) {
                case .imported: imported.append(entry.id)
                case .rejected(let reason): try journal.markFailed(entry.id, reason: reason)
                case .retryLater: break
                }
            }
            lastOutcomes.merge(current) { _, new in new }
            try journal.markImported(imported)
            tracker.add(imported: imported.count)
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
