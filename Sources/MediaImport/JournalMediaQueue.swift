import Foundation
import PiperCore

/// The media route's `MediaQueue`: writes each share to the durable journal, makes sure an
/// agent will work it (starting a detached `piper agent --once` when none runs), and returns.
/// The share never waits for the download.
public struct JournalMediaQueue: MediaQueue {
    package let state: StateFolder
    /// The environment handed to a started agent (and read for `PIPER_EXECUTABLE`).
    package let environment: [String: String]
    /// How an extension-less link is asked what it is; `piper serve` gives it its fetch guard.
    public var probe = EnqueueProbe()
    /// Download a link again even when the download archive says it is in the library
    /// (`piper share --again`).
    public var again = false
    /// A folder whose files are the queue's to take (`piper serve`'s uploads, on the state
    /// folder's file system): a file shared from there is renamed into `downloads/` instead of
    /// copied, so a large upload is written once and fsynced once.
    public var takesFilesFrom: URL?
    /// The library's catalog when it is not the state folder's `library.sqlite` (a server's
    /// shared store): a playlist entry already in the library is kept in its folder through it.
    public var catalog: (any CatalogStore & Sendable)?

    /// A queue on the journal of `state`; `environment` goes to any agent it starts.
    public init(state: StateFolder, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.state = state
        self.environment = environment
    }

    /// Queues a link. Allow-listed extensions are taken as they are (after Dropbox/Drive
    /// rewriting); a link without one is taken when the server says it is audio, video or zip.
    public func enqueue(url: URL, into folder: String?) throws -> MediaReceipt {
        try enqueue(MediaLink(url), into: folder)
    }

    /// Queues a link as the flow knows it: its direct URL as worked out there, the page's
    /// `title` and `author` for tags the file lacks; the server is asked what it is only when
    /// neither its extension nor a Content-Type the flow already has says.
    public func enqueue(_ link: MediaLink, into folder: String?) throws -> MediaReceipt {
        let url = link.shared
        let direct = link.direct
        guard WebURL.isWeb(url) else {
            throw EnqueueError.unsupportedScheme(url.absoluteString)
        }
        if !link.isKnownMedia {
            let type = try probe.contentType(of: direct)
            guard MediaLinks.isMediaContentType(type) else { throw EnqueueError.notMedia(url.absoluteString, type) }
        }
        let title = link.title
        let author = link.author
        let journal = try Journal(state: state)
        if !again, let done = try journal.libraryEntry(source: direct.absoluteString) {
            let path = done.libraryPath ?? done.file ?? direct.lastPathComponent
            return MediaReceipt(id: done.id, url: url.absoluteString, message: Messages.alreadyInLibrary(path),
                                alreadyInLibrary: path)
        }
        let (entry, already) = try journal.add(url: url.absoluteString, source: direct.absoluteString, kind: .url, folder: folder,
                                               title: title, author: author)
        try ensureWorker()
        let name = direct.lastPathComponent.isEmpty || direct.lastPathComponent == "/" ? direct.absoluteString : direct.lastPathComponent
        return MediaReceipt(id: entry.id, url: url.absoluteString, alreadyQueued: already,
                            message: already ? "Already downloading \(name)" : "Downloading \(name) in the background")
    }

    /// Queues a playlist or feed: one job per entry, all in one library folder (under `folder`,
    /// named after the playlist), landing as `01 name`, `02 name`, … so it lists in order. The
    /// folder holds every entry asked for: one already in the library (by its link) gets the
    /// folder's own file at once, a hard link (else a copy) of the library's, recorded in the
    /// catalog (unless `again`, which downloads it anew); one whose content turns out to be in the
    /// library under another link gets the same when it is imported. The receipt's id names the group.
    public func enqueue(playlist: Playlist, source: URL, into folder: String?) throws -> MediaReceipt {
        let journal = try Journal(state: state)
        let group = Journal.newID()
        let stem = URL(fileURLWithPath: source.lastPathComponent).deletingPathExtension().lastPathComponent
        let name = DownloadFileName.sanitize(playlist.title ?? (stem.isEmpty ? "playlist" : stem))
        let target = [folder, name].compactMap { $0 }.joined(separator: "/")
        var queued = 0
        var skipped = 0
        var downloading = 0
        var firstJoined: String?
        var importer: LibraryImporter?
        for (position, item) in playlist.entries.enumerated() {
            let direct = MediaLinks.directDownloadURL(for: item.url)
            if !again, let done = try journal.libraryEntry(source: direct.absoluteString), let path = done.libraryPath {
                if importer == nil { importer = try LibraryImporter(state: state, catalog: catalog) }
                let name = String(format: "%02d ", position + 1) + Self.withoutPlace(URL(fileURLWithPath: path).lastPathComponent)
                if let kept = try importer?.keepInFolder(libraryPath: path, folder: target, name: name) {
                    let (entry, _) = try journal.add(url: item.url.absoluteString, source: direct.absoluteString, kind: .url, folder: target,
                                                     state: .duplicate, group: group, position: position)
                    try journal.markImported([JournalOutcome(id: entry.id, state: .duplicate, libraryPath: kept)])
                    skipped += 1
                    continue
                }
            }
            // Bound for another folder, a job of the same link does not stand in for this one
            // (`Journal.add`); one for this very folder (the same playlist shared twice) does.
            let (entry, joined) = try journal.add(url: item.url.absoluteString, source: direct.absoluteString, kind: .url, folder: target,
                                                  group: group, position: position)
            if joined { downloading += 1; firstJoined = firstJoined ?? entry.id } else { queued += 1 }
        }
        if queued > 0 { try ensureWorker() }
        if queued == 0, skipped == 0, let firstJoined {
            return MediaReceipt(id: firstJoined, url: source.absoluteString, alreadyQueued: true,
                                message: "Already downloading \(name) into \(target)")
        }
        var notes: [String] = []
        if skipped > 0 { notes.append("\(skipped) already in the library, kept in the folder too") }
        if downloading > 0 { notes.append("\(downloading) of them downloading into it already") }
        let already = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
        // `--newest N` of a feed that lists fewer: say why there are fewer.
        let fewer = playlist.asked.flatMap { $0 > playlist.entries.count ? " The feed lists only \(playlist.entries.count) episode\(playlist.entries.count == 1 ? "" : "s")." : nil } ?? ""
        var receipt: MediaReceipt
        if queued == 0, downloading == 0 {
            receipt = MediaReceipt(id: group, url: source.absoluteString,
                                   message: "All \(skipped) already in the library, now also in \(target).\(fewer)", alreadyInLibrary: target)
        } else {
            receipt = MediaReceipt(id: group, url: source.absoluteString,
                                   message: "Downloading \(queued + downloading) file\(queued + downloading == 1 ? "" : "s") of \(name) into \(target) in the background\(already).\(fewer)",
                                   groupSize: queued + skipped)
        }
        receipt.feed = playlist.kind == .feed ? true : nil
        return receipt
    }

    /// A file name without the place another playlist gave it (`03 name.mp3` → `name.mp3`).
    static func withoutPlace(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard bytes.count > 3, bytes[0] >= 0x30, bytes[0] <= 0x39, bytes[1] >= 0x30, bytes[1] <= 0x39, bytes[2] == 0x20 else { return name }
        return String(name.dropFirst(3))
    }

    /// Queues a local file: copied (or, from `takesFilesFrom`, renamed) into `downloads/`,
    /// journaled, fsynced and renamed into the inbox before this returns; the agent then imports it.
    public func enqueue(file: URL, into folder: String?) throws -> MediaReceipt {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw EnqueueError.fileNotFound(file.path)
        }
        guard !isDirectory.boolValue else { throw EnqueueError.notAFile(file.path) }
        try state.ensure(state.downloads)
        try state.ensure(state.inbox)
        let id = Journal.newID()
        let partial = state.downloads.appendingPathComponent("\(id).part")
        if !take(file, to: partial) { try Landing.copy(file, to: partial) }
        let journal = try Journal(state: state)
        let name = DownloadFileName.sanitize(file.lastPathComponent)
        let source = file.standardizedFileURL.path + "#" + id   // each share of a file is its own entry
        let (entry, _) = try journal.add(url: file.path, source: source, kind: .file, folder: folder, state: .downloaded, id: id)
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.int64Value ?? 0
        try journal.markDownloaded(entry.id, bytes: bytes, file: name)
        let landed = try Landing.land(partial, as: name, into: state.inbox, hints: entry.importHints) { try journal.setFile(entry.id, $0) }
        try journal.markLanded(entry.id, file: landed)
        try ensureWorker()
        return MediaReceipt(id: entry.id, url: file.path, message: "Added \(landed) to the inbox")
    }

    /// Renames `file` to `partial` when it lies in `takesFilesFrom`; false when it must be
    /// copied (another folder, or another file system after all).
    private func take(_ file: URL, to partial: URL) -> Bool {
        guard let folder = takesFilesFrom?.standardizedFileURL.path else { return false }
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else { return false }
        return rename(path, partial.path) == 0
    }

    private func ensureWorker() throws {
        _ = try AgentLauncher.ensureWorker(state: state, environment: environment)
    }
}
