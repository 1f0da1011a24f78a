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
        Thread.detachNewThread {
            let landed = Agent.runWorker(entry, state: state, settings: settings, progress: progress, log: log)
            tracker.finish(entry.id, landed: landed)
        }
    }

    static func runWorker(_ entry: JournalEntry, state: StateFolder, settings: AgentSettings,
                          progress: ProgressDisplay?, log: @escaping @Sendable (String) -> Void) -> Bool {
        let partial = entry.partialFile(in: state.downloads)
        let journal: Journal
        do { journal = try Journal(state: state) } catch {
            log("cannot open the journal for \(entry.id): \(error)")
            return false
        }
        do {
            guard let url = URL(string: entry.source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
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
                    try? journal.setMetadata(entry.id, meta)
                },
                progress: { bytes, total in
                    progress?.update(id: entry.id, name: name, bytes: bytes, total: total)
                    if Date().timeIntervalSince(lastSaved) >= 0.5 {
                        lastSaved = Date()
                        try? journal.setProgress(entry.id, bytes: bytes, total: total)
                    }
                },
                retrying: { reason, delay in
                    log("retrying \(entry.url) in \(String(format: "%.1f", delay)) s: \(reason)")
                    try? journal.setState(entry.id, .downloading, reason: "retrying: \(reason)")
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
                // the next pass (or the next agent) lands it.
                log("cannot land \(entry.url) yet: \(error)")
            }
            return true
        } catch {
            let reason = "\(error)"
            try? journal.markFailed(entry.id, reason: reason)
            unlink(partial.path)
            progress?.finish(id: entry.id, message: "failed \(entry.url): \(reason)")
            log("failed \(entry.url): \(reason)")
            return false
        }
    }
}
