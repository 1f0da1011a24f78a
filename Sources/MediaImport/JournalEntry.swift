import Foundation

/// Where a journal entry stands. queued → downloading → downloaded → landed → imported,
/// or failed with a reason.
public enum DownloadState: String, Codable, Sendable, CaseIterable {
    case queued, downloading, downloaded, landed, imported, failed

    /// States in which the same source may not be queued again.
    public static let active: [DownloadState] = [.queued, .downloading, .downloaded]
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
    public var created: Date
    public var updated: Date

    /// The importer's sidecar hints for this entry: only when it names a library folder.
    public var importHints: ImportHints? {
        folder.map { ImportHints(folder: $0, sourceURL: url) }
    }

    /// The partial file in `downloads/` for this entry.
    public func partialFile(in downloads: URL) -> URL {
        downloads.appendingPathComponent("\(id).part")
    }
}
