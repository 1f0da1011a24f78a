import Foundation

/// Where a journal entry stands. queued → downloading → downloaded → landed → imported (or
/// duplicate: the same content was already in the library), or failed with a reason, or
/// cancelled (`piper downloads cancel`).
public enum DownloadState: String, Codable, Sendable, CaseIterable {
    case queued, downloading, downloaded, landed, imported, duplicate, failed, cancelled

    /// States in which the same source may not be queued again.
    public static let active: [DownloadState] = [.queued, .downloading, .downloaded]
    /// States a job ends in.
    public static let terminal: [DownloadState] = [.imported, .duplicate, .failed, .cancelled]
    /// States whose source is in the library (the download archive: not fetched again).
    public static let inLibrary: [DownloadState] = [.imported, .duplicate]
}

/// What was shared: a URL to download, or a local file copied into the inbox.
public enum DownloadKind: String, Codable, Sendable {
    case url, file
}

/// One row of the download journal.
public struct JournalEntry: Sendable, Equatable, Codable {
    public var id: String
    /// The link as shared.
    public var url: String
    /// What is actually fetched: the direct-download URL, or the local file's path.
    public var source: String
    public var kind: DownloadKind
    public var folder: String?
    public var state: DownloadState
    public var bytes: Int64
    public var total: Int64?
    /// The file's name: as chosen from the response, then its final name in the inbox.
    public var file: String?
    public var reason: String?
    public var etag: String?
    public var lastModified: String?
    /// Where the item is in the library (relative to `library/`; a folder for an archive),
    /// once imported or found to be a duplicate.
    public var libraryPath: String?
    /// Bytes a second at the last progress report of a running download.
    public var rate: Double?
    /// A queued job waiting to be tried later (its server could not be reached) is due then.
    public var notBefore: Date?
    /// How many times the job was put off until later.
    public var laterTries: Int
    /// A playlist's jobs share a group id; `position` is the entry's place in it (0-based).
    public var group: String?
    public var position: Int?
    /// The shared page's title and author (media found on a page), for tags the file lacks.
    public var title: String?
    public var author: String?
    public var created: Date
    public var updated: Date

    /// The importer's sidecar hints for this entry: only when it has something to say beyond
    /// its source (a library folder, a page's title or author).
    public var importHints: ImportHints? {
        guard folder != nil || title != nil || author != nil else { return nil }
        return ImportHints(folder: folder, sourceURL: url, title: title, author: author)
    }

    /// The name a playlist entry lands as: its position first (`03 name.mp3`), so the folder
    /// lists in playlist order; other entries keep `name`.
    public func landingName(_ name: String) -> String {
        guard let position else { return name }
        return String(format: "%02d ", position + 1) + name
    }

    /// The partial file in `downloads/` for this entry.
    public func partialFile(in downloads: URL) -> URL {
        downloads.appendingPathComponent("\(id).part")
    }
}

/// How an import ended for one landed entry, as the journal records it.
public struct JournalOutcome: Sendable, Equatable {
    public var id: String
    /// `.imported` or `.duplicate`.
    public var state: DownloadState
    public var libraryPath: String?
    /// For an archive: the entries it refused, kept in the entry's `reason`.
    public var note: String?

    public init(id: String, state: DownloadState, libraryPath: String?, note: String? = nil) {
        self.id = id
        self.state = state
        self.libraryPath = libraryPath
        self.note = note
    }
}
