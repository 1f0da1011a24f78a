import Foundation

/// One item of the library catalog, as `piper library` shows it.
public struct LibraryItem: Sendable, Codable, Equatable {
    /// Path relative to `library/`, with `/` separators.
    public var path: String
    public var title: String
    public var author: String?
    public var album: String?
    public var duration: Double?
    public var chapters: [Chapter]
    public var format: String
    public var size: Int64
    public var sha256: String
    public var sourceURL: String?
    /// The file's name when it arrived (in the inbox, or inside its archive).
    public var originalName: String
    /// ISO 8601, UTC.
    public var addedAt: String
}

/// A file that was refused, with the sentence a user sees.
public struct Rejection: Sendable, Codable, Equatable {
    public var fileName: String
    public var reason: String
    public var sha256: String?
    public var sourceURL: String?
    /// Where the refused file now lies, relative to the state folder (nil when it was dropped,
    /// e.g. an unsafe archive entry that was never written).
    public var movedTo: String?
    public var rejectedAt: String
}

enum CatalogClock {
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
