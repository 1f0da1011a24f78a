import Foundation

extension Agent {
    /// Removes partial files nobody will resume: their entry failed or finished, or there is
    /// no entry at all (a sharer died between copying a file and journaling it). Files touched
    /// in the last `minimumAge` seconds are left alone, since a sharer may still be writing.
    func removeOrphanedPartials(_ journal: Journal, minimumAge: TimeInterval = 600, now: Date = Date()) throws {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: state.downloads.path)) ?? []
        for name in names where name.hasSuffix(".part") {
            let id = String(name.dropLast(5))
            if let entry = try journal.entry(id: id), DownloadState.active.contains(entry.state) { continue }
            let file = state.downloads.appendingPathComponent(name)
            guard let modified = (try? fm.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) >= minimumAge else { continue }
            try? fm.removeItem(at: file)
            log("removed orphaned partial file \(name)")
        }
    }

    /// Removes the temp files a dead writer left in the library and the inbox (an import's
    /// cross-file-system copy killed halfway): `TemporaryFile`'s, which their writers lock.
    func removeOrphanedTemporaries() {
        for folder in [state.library, state.inbox] {
            for path in TemporaryFile.removeOrphans(in: folder) { log("removed a file a stopped import left: \(path)") }
        }
    }
}
