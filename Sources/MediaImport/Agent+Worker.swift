import Foundation
import PiperCore
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
        tracker.start(entry.id)
        Thread.detachNewThread {
            let result = Agent.runWorker(entry, state: state, settings: settings, progress: progress, tracker: tracker, log: log)
            tracker.finish(entry.id, result: result)
        }
    }

    static func runWorker(_ entry: JournalEntry, state: StateFolder, settings: AgentSettings, progress: ProgressDisplay?,
                          tracker: WorkerTracker? = nil, log: @escaping @Sendable (String) -> Void) -> WorkerResult {
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
            let events = DownloadEvents(
                metadata: { meta in
                    name = meta.fileName
                    note.write("its resume validators") { try journal.setMetadata(entry.id, meta) }
                },
                progress: { bytes, total in
                    tracker?.progress(entry.id, bytes: bytes)
                    progress?.update(id: entry.id, name: name, bytes: bytes, total: total)
                    if Date().timeIntervalSince(lastSaved) >= 0.5 {
                        lastSaved = Date()
                        note.write("its progress") { try journal.setProgress(entry.id, bytes: bytes, total: total) }
                    }
                },
                retrying: { reason, delay in
                    log("retrying \(entry.url) in \(String(format: "%.1f", delay)) s: \(reason)")
                    note.write("a retry") { try journal.setState(entry.id, .downloading, reason: "retrying: \(reason)") }
                })
            let result = try Downloader(settings: settings.download).download(request, events: events)
            try journal.markDownloaded(entry.id, bytes: result.bytes, file: result.metadata.fileName)
            settings.hooks.pause(at: "downloaded", log: log)
            do {
                let landedName = try Landing.land(partial, as: result.metadata.fileName, into: state.inbox, hints: entry.importHints) {
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
        } catch {
            // Free the space first: on a full disk the journal can only record the failure
            // once the partial file is gone.
            unlink(partial.path)
            let reason = "\(error)"
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
