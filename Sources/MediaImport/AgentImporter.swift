import Foundation
import PiperCore

/// The agent's port to the import pipeline: bring every complete file in `inbox/` into the
/// library, with each landed file's hints (its `--into` folder, its source link). Must be
/// idempotent (the library dedups by SHA-256): after a crash the agent may run it again over
/// files it already imported.
/// `landed` tells which inbox names Piper landed itself (complete by construction); the
/// importer waits for any other file until nothing writes it, and counts those in
/// `deferredFiles` so the agent looks again soon.
public protocol InboxImporting {
    func importInbox(hints: (String) -> ImportHints?, landed: (String) -> Bool) throws -> [ImportOutcome]
    var deferredFiles: Int { get }
}

extension LibraryImporter: InboxImporting {
    public func importInbox(hints: (String) -> ImportHints?, landed: (String) -> Bool) throws -> [ImportOutcome] {
        try importPending(hints: hints, landed: landed)
    }
}

/// Builds the importer the agent uses: the library importer.
public enum AgentImporterFactory {
    /// The importer into the library of `state`, recording in `catalog` (nil: `library.sqlite`).
    public static func make(state: StateFolder, catalog: (any CatalogStore)? = nil) throws -> (any InboxImporting)? {
        try LibraryImporter(state: state, catalog: catalog)
    }
}

/// What the journal makes of the importer's word on one landed file.
enum ImportVerdict: Equatable {
    /// In the library at this path (nil when another importer took it and we don't know where).
    case imported(String?)
    /// The same content was already in the library, at this path.
    case duplicate(String)
    case rejected(String)
    /// The disk was full: the job fails with the reason (the file stays in the inbox, so
    /// `piper downloads retry` imports it once space is free).
    case noSpace(String)
    case retryLater

    /// `outcome` is nil when the importer didn't see the file: if it is still in the inbox it
    /// arrived too late for this run (or is still being written); if not, something else (the
    /// inbox watcher) took it.
    init(_ outcome: ImportOutcome?, stillInInbox: Bool) {
        guard let outcome else { self = stillInInbox ? .retryLater : .imported(nil); return }
        switch outcome.result {
        case .imported(let path): self = .imported(path)
        case .duplicate(let path): self = .duplicate(path)
        case .rejected(let reason): self = .rejected("Not imported: \(reason)")
        case .failed(let reason): self = ImportVerdict.isNoSpace(reason) ? .noSpace("Not enough disk space to import it: \(reason)") : .retryLater
        }
    }

    /// True for a failure that is a full disk (or quota), whatever step met it.
    static func isNoSpace(_ reason: String) -> Bool {
        ["No space left on device", "Disk quota exceeded", "disk is full", "Not enough disk space", "database or disk is full"]
            .contains { reason.localizedCaseInsensitiveContains($0) }
    }
}
