import Foundation

/// Where a journal entry stands. queued → downloading → downloaded → landed → imported (or
/// duplicate: the same content was already in the library), or failed with a reason, or
/// cancelled (`piper downloads cancel`).
public enum DownloadState: String, Codable, Sendable, CaseIterable {
    case queued, downloading, downloaded, landed, imported, duplicate, failed, cancelled

    /// States in which the same source may not be queued again.
    package static let active: [DownloadState] = [.queued, .downloading, .downloaded]
    /// States a job ends in.
    public static let terminal: [DownloadState] = [.imported, .duplicate, .failed, .cancelled]
    /// States whose source is in the library (the download archive: not fetched again).
    public static let inLibrary: [DownloadState] = [.imported, .duplicate]
}

/// What was shared: a URL to download, or a local file copied into the inbox.
package enum DownloadKind: String, Codable, Sendable {
    case url, file
}

/// One row of the download journal.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// A short random id (12 hex digits), as `piper downloads` lists it and its actions take it.
    public var id: String
    /// The link as shared.
    public var url: String
    /// What is actually fetched: the direct-download URL, or the local file's path.
    package var source: String
    package var kind: DownloadKind
    /// The library folder the share asked for (`--into`, a playlist's folder), nil for the default.
    public var folder: String?
    /// Where the job stands; only the journal's transactions change it.
    public var state: DownloadState
    /// Bytes downloaded so far (the partial file's length while downloading).
    public var bytes: Int64
    /// The expected size, when the server said.
    public var total: Int64?
    /// The file's name: as chosen from the response, then its final name in the inbox.
    public var file: String?
    /// Why the job failed or waits, as a sentence for the listing.
    public var reason: String?
    package var etag: String?
    package var lastModified: String?
    /// Where the item is in the library (relative to `library/`; a folder for an archive),
    /// once imported or found to be a duplicate.
    public var libraryPath: String?
    /// Bytes a second at the last progress report of a running download.
    public var rate: Double?
    /// A queued job waiting to be tried later (its server could not be reached) is due then.
    public var notBefore: Date?
    /// How many times the job was put off until later.
    package var laterTries: Int
    /// A playlist's jobs share a group id; `position` is the entry's place in it (0-based).
    public var group: String?
    package var position: Int?
    /// The shared page's title and author (media found on a page), for tags the file lacks.
    package var title: String?
    package var author: String?
    package var created: Date
    /// When the entry last changed (the listing's time; progress updates it).
    public var updated: Date

    /// The importer's sidecar hints for this entry: only when it has something to say beyond
    /// its source (a library folder, a page's title or author).
    package var importHints: ImportHints? {
        guard folder != nil || title != nil || author != nil else { return nil }
        return ImportHints(folder: folder, sourceURL: url, title: title, author: author, wholeFolder: group != nil && folder != nil ? true : nil)
    }

    /// The name a playlist entry lands as: its position first (`03 name.mp3`), so the folder
    /// lists in playlist order; other entries keep `name`.
    package func landingName(_ name: String) -> String {
        guard let position else { return name }
        return String(format: "%02d ", position + 1) + name
    }

    /// The partial file in `downloads/` for this entry.
    package func partialFile(in downloads: URL) -> URL {
        downloads.appendingPathComponent("\(id).part")
    }
}

/// How an import ended for one landed entry, as the journal records it.
package struct JournalOutcome: Sendable, Equatable {
    package var id: String
    /// `.imported` or `.duplicate`.
    package var state: DownloadState
    package var libraryPath: String?
    /// For an archive: the entries it refused, kept in the entry's `reason`.
    package var note: String?

    package init(id: String, state: DownloadState, libraryPath: String?, note: String? = nil) {
        self.id = id
        self.state = state
        self.libraryPath = libraryPath
        self.note = note
    }
}
