import Foundation
import Glibc
import PiperCore

/// Moves complete files from `inbox/` into `library/`: sniffs the real format, unpacks zips
/// safely, reads tags, dedups by SHA-256 and records everything in `library.sqlite`.
///
/// One importer runs at a time per library: each run holds the catalog's import lock (an
/// exclusive `flock` on `import.lock` in the state folder for `library.sqlite`; with a shared
/// store, also a lock held in the database, so servers importing into one library folder take
/// turns). A run is idempotent; a crash at any point is repaired by the next run (see
/// `CatalogStore.reconcile`).
///
/// `@unchecked Sendable`: the catalog connection and all per-run work are used only inside
/// `importPending`, which holds `runLock` for its whole duration.
public final class LibraryImporter: @unchecked Sendable {
    public let state: StateFolder
    public let limits: ArchiveLimits
    let catalog: any CatalogStore
    private let runLock = NSLock()
    /// Which inbox files are complete; kept across runs (guarded by `runLock`).
    let readiness = InboxReadiness()
    private var deferredCount = 0
    /// Told when a copy across file systems has written its first chunk (the crash tests stop
    /// there); nil in normal use.
    public var checkpoints: (any AgentCheckpoints)?

    /// An importer into the library of `state`, recording in `catalog` (nil: the state folder's
    /// `library.sqlite`).
    public init(state: StateFolder, limits: ArchiveLimits = ArchiveLimits(), catalog: (any CatalogStore)? = nil) throws {
        self.state = state
        self.limits = limits
        for folder in [state.inbox, state.rejectedFolder, state.importTemp] { try state.ensure(folder) }
        try LibraryFiles.makeFolders(state.library, modes: state.libraryModes)
        self.catalog = try catalog ?? LibraryCatalog(url: state.libraryCatalog)
        try self.catalog.relativizePaths(libraryRoot: state.library)
    }

    /// Imports every complete file in the inbox, with hints from sidecar files.
    public func importPending() throws -> [ImportOutcome] {
        try importPending(hints: { _ in nil })
    }

    /// Imports every complete file; `placement` names the library folder for an inbox file
    /// (the journal's `--into FOLDER`), nil for the default.
    public func importPending(placement: (String) -> String?) throws -> [ImportOutcome] {
        try importPending(hints: { name in placement(name).map { ImportHints(folder: $0) } })
    }

    /// Imports every complete file in `inbox/` (dotfiles and temp names are skipped). For each
    /// file the hints come from `hints`, else from the sidecar `inbox/.<name>.piper.json`.
    /// `landed` names the files Piper renamed in whole; any other file waits until no process
    /// is writing it (see `InboxReadiness`) and counts in `deferredFiles` meanwhile.
    public func importPending(hints: (String) -> ImportHints?, landed: (String) -> Bool = { _ in false }) throws -> [ImportOutcome] {
        runLock.lock()
        defer { runLock.unlock() }
        return try catalog.withImportLock(state: state) { try importLocked(hints: hints, landed: landed) }
    }

    private func importLocked(hints: (String) -> ImportHints?, landed: (String) -> Bool) throws -> [ImportOutcome] {
        try catalog.reconcile(libraryRoot: state.library)
        removeStaleTemp()
        var outcomes: [ImportOutcome] = []
        let (ready, deferred) = readiness.split(try pendingNames(), in: state.inbox, landed: landed)
        deferredCount = deferred.count
        for name in ready {
            let sidecar = Self.sidecar(for: name, in: state.inbox)
            let fromSidecar = Self.readSidecar(sidecar)
            var hint = hints(name) ?? fromSidecar ?? ImportHints()
            hint.name = hint.name ?? fromSidecar?.name
            let outcome = importOne(name: name, hints: hint)
            if case .failed = outcome.result {} else { try? FileManager.default.removeItem(at: sidecar) }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Inbox files the last run left because something was still writing them.
    public var deferredFiles: Int {
        runLock.lock(); defer { runLock.unlock() }
        return deferredCount
    }

    /// Names of the files in the inbox (not temp names, not folders), oldest first (by
    /// modification time, then name), so that of two copies the one shared first is the one
    /// imported and the later one is the duplicate.
    func pendingNames() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: state.inbox.path)
            .filter { !Self.isTemporaryName($0) && !Self.isDirectory(state.inbox.appendingPathComponent($0)) }
        let keyed = names.map { name -> (name: String, modified: Int64) in
            var info = stat()
            let ok = lstat(state.inbox.appendingPathComponent(name).path, &info) == 0
            return (name, ok ? Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) : 0)
        }
        return keyed.sorted { $0.modified != $1.modified ? $0.modified < $1.modified : $0.name < $1.name }.map(\.name)
    }

    static func isDirectory(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Dotfiles (sidecars, hidden temp files) and the usual partial-download suffixes.
    static func isTemporaryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        return [".tmp", ".part", ".partial", ".download", ".crdownload", ".piper-tmp"].contains { lower.hasSuffix($0) }
    }

    static func sidecar(for name: String, in inbox: URL) -> URL {
        inbox.appendingPathComponent(".\(name).piper.json")
    }

    static func readSidecar(_ url: URL) -> ImportHints? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(ImportHints.self, from: data)
    }

    /// Extraction folders left by a crashed run (we hold the lock, so none is in use).
    private func removeStaleTemp() {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: state.importTemp.path)) ?? [] {
            try? fm.removeItem(at: state.importTemp.appendingPathComponent(name))
        }
    }
}

extension StateFolder {
    /// Refused files, out of the inbox so they are not retried forever.
    public var rejectedFolder: URL { url.appendingPathComponent("rejected", isDirectory: true) }
    /// Extraction and tag-reading scratch space, on the same file system as the library.
    var importTemp: URL { url.appendingPathComponent("tmp", isDirectory: true) }
    package var importLock: URL { url.appendingPathComponent("import.lock") }
}
