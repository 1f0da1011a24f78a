import Foundation
import PiperCore
import PiperSystem
#if canImport(Glibc)
import Glibc
#endif

extension Agent {
    /// Downloads one claimed entry on its own thread, then lands it in the inbox. Every step
    /// is journaled before the next begins.
    func startWorker(_ entry: JournalEntry) {
        let state = self.state
        let settings = self.settings
        let tracker = self.tracker
        let progress = self.progress
        let log = self.log
        let notifier = self.notifier
        let checkpoints = self.checkpoints
        let followStore = self.followStore
        let stop = self.stop
        let downloader = Downloader(settings: settings.download, connectionGuard: connectionGuard)
        tracker.start(entry.id)
        Thread.detachNewThread {
            let result = Agent.runWorker(entry, state: state, settings: settings, progress: progress, tracker: tracker, log: log,
                                         downloader: downloader, checkpoints: checkpoints, followStore: followStore, stop: stop)
            if result == .failed, let failed = (try? Journal(state: state).entry(id: entry.id)) ?? nil, failed.state == .failed {
                notifier?.notify("Piper: download failed", "\(entry.url): \(failed.reason ?? "no reason")")
            }
            tracker.finish(entry.id, result: result)
        }
    }

    static func runWorker(_ entry: JournalEntry, state: StateFolder, settings: AgentSettings, progress: ProgressDisplay?,
                          tracker: WorkerTracker? = nil, log: @escaping @Sendable (String) -> Void,
                          downloader: Downloader, checkpoints: (any AgentCheckpoints)? = nil,
                          followStore: (any FollowStore & Sendable)? = nil, stop: AgentStop? = nil) -> WorkerResult {
        let partial = entry.partialFile(in: state.downloads)
        let journal: Journal
        do { journal = try Journal(state: state) } catch {
            // The entry stays `downloading`; the next agent start requeues it.
            log("cannot open the journal for \(entry.id): \(error)")
            return .unrecorded(reason: "Cannot open the download journal: \(error)")
        }
        let note = JournalNote(id: entry.id, log: log)
        do {
            guard let url = WebURL.http(entry.source) else {
                throw DownloadError.failed("Not an http(s) link: \(entry.source)")
            }
            log("downloading \(entry.url)")
            let request = DownloadRequest(url: url, partialFile: partial, knownTotal: entry.total, etag: entry.etag,
                                          lastModified: entry.lastModified, fileName: entry.file)
            var name = entry.file ?? url.lastPathComponent
            var lastSaved = Date.distantPast
            var lastBytes: Int64?
            let events = DownloadEvents(
                metadata: { meta in
                    name = meta.fileName
                    note.write("its resume validators") { try journal.setMetadata(entry.id, meta) }
                },
                progress: { bytes, total in
                    tracker?.progress(entry.id, bytes: bytes)
                    progress?.update(id: entry.id, name: name, bytes: bytes, total: total)
                    let now = Date()
                    if now.timeIntervalSince(lastSaved) >= 0.5 {
                        let rate = lastBytes.map { Double(max(bytes - $0, 0)) / now.timeIntervalSince(lastSaved) }
                        lastSaved = now
                        lastBytes = bytes
                        note.write("its progress") { try journal.setProgress(entry.id, bytes: bytes, total: total, rate: rate) }
                    }
                },
                retrying: { reason, delay in
                    log("retrying \(entry.url) in \(String(format: "%.1f", delay)) s: \(reason)")
                    note.write("a retry") {
                        try journal.setRetrying(entry.id, reason: Agent.retryingPrefix + reason, until: Date().addingTimeInterval(delay))
                    }
                },
                shouldContinue: { stop?.isRequested != true && (try? journal.isCancelled(entry.id)) != true })
            let result = try downloader.download(request, events: events)
            try journal.markDownloaded(entry.id, bytes: result.bytes, file: result.metadata.fileName)
            checkpoints?.reached(.downloaded)
            do {
                // A followed show's episode is named by its date first (`2026-12-03 name.mp3`).
                let name = entry.landingName(result.metadata.fileName)
                let named = ((try? journal.followStore(followStore).followPrefix(download: entry.id)) ?? nil).map { "\($0) \(name)" } ?? name
                let landedName = try Landing.land(partial, as: named, into: state.inbox,
                                                  hints: entry.importHints) {
                    try journal.setFile(entry.id, $0)
                }
                try journal.markLanded(entry.id, file: landedName)
                progress?.finish(id: entry.id, message: "landed \(landedName)")
                log("landed \(landedName) (\(result.bytes) bytes)")
            } catch {
                // The complete file stays in downloads/ and the entry stays `downloaded`:
                // the agent's next pass lands it, or ends the job with the reason.
                log("cannot land \(entry.url) yet: \(error)")
            }
            return .landed
        } catch DownloadError.stalled(let reason) where entry.laterTries < settings.download.laterLimit {
            // Below the speed floor: the slot goes to the next job; this one resumes soon.
            return postpone(entry, until: Date().addingTimeInterval(settings.download.stallRetryDelay), reason: reason,
                            journal: journal, progress: progress, log: log)
        } catch DownloadError.unreachable(let reason) where entry.laterTries < settings.download.laterLimit {
            // The server could not be reached (offline, down): keep the partial file and try
            // again much later instead of failing for good.
            return postpone(entry, until: Date().addingTimeInterval(settings.download.laterDelay(entry.laterTries + 1)), reason: reason,
                            journal: journal, progress: progress, log: log)
        } catch where stop?.isRequested == true && (try? journal.isCancelled(entry.id)) != true {
            // Stopped at a safe point: the partial file and the validators stay for the next
            // agent, which resumes the job (the entry stays `downloading` until the agent
            // puts it back in the queue).
            progress?.finish(id: entry.id, message: "paused \(entry.url)")
            log("paused \(entry.url) at \((try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int64) ?? 0) bytes")
            return .paused
        } catch {
            // Free the space first: on a full disk the journal can only record the failure
            // once the partial file is gone.
            unlink(partial.path)
            let reason = "\(error)"
            if (try? journal.isCancelled(entry.id)) == true {
                progress?.finish(id: entry.id, message: "cancelled \(entry.url)")
                log("cancelled \(entry.url)")
                return .failed
            }
            progress?.finish(id: entry.id, message: "failed \(entry.url): \(reason)")
            log("failed \(entry.url): \(reason)")
            do {
                try journal.markFailed(entry.id, reason: reason)
                return .failed
            } catch {
                log("cannot record the failure of \(entry.id) yet: \(error)")
                return .unrecorded(reason: reason)
            }
        }
    }
}

extension Agent {
    /// How a download between two attempts notes its last failure in the journal's reason.
    static let retryingPrefix = "retrying: "

    /// Puts a job off until `due`, its partial file kept; the journal keeps the reason and the
    /// time apart (`JobStatus` says them in the reader's zone). A journal that cannot record it
    /// now leaves that to the agent's loop.
    static func postpone(_ entry: JournalEntry, until due: Date, reason: String, journal: Journal, progress: ProgressDisplay?,
                         log: @Sendable (String) -> Void) -> WorkerResult {
        let sentence = "Will try again at \(Self.clock(due)): \(reason)"
        progress?.finish(id: entry.id, message: "\(entry.url): \(sentence)")
        log("\(entry.url): \(sentence)")
        do {
            try journal.retryLater(entry.id, at: due, reason: reason)
            return .later
        } catch {
            log("cannot record the retry of \(entry.id) yet: \(error)")
            return .unrecorded(reason: reason)
        }
    }

    /// `14:32 UTC` (with the date when it is not today), for the log's "Will try again at …".
    static func clock(_ date: Date, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        formatter.dateFormat = calendar.isDate(date, inSameDayAs: now) ? "HH:mm 'UTC'" : "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}

/// Journal writes a worker makes along the way (progress, validators): a failed one is logged
/// once per job, never dropped silently, and the download goes on (the states that matter,
/// downloaded and failed, are written with `try`).
///
/// `@unchecked Sendable`: `reported` is guarded by `lock`.
final class JournalNote: @unchecked Sendable {
    private let id: String
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var reported = false

    init(id: String, log: @escaping @Sendable (String) -> Void) {
        self.id = id
        self.log = log
    }

    func write(_ what: String, _ body: () throws -> Void) {
        do { try body() } catch {
            lock.lock(); defer { lock.unlock() }
            guard !reported else { return }
            reported = true
            log("cannot journal \(what) for \(id): \(error)")
        }
    }
}
