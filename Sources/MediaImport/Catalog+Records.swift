import Foundation

/// One item of the library catalog, as `piper library` shows it.
public struct LibraryItem: Sendable, Codable, Equatable {
    /// Path relative to `library/`, with `/` separators.
    public var path: String
    /// The title tag, else the shared page's title, else the file name without its extension.
    public var title: String
    /// The artist tag, else the shared page's author; nil when neither is known.
    public var author: String?
    package var album: String?
    /// Seconds, from the stream headers where Piper reads them, else TagLib; nil when unknown.
    public var duration: Double?
    /// MP4 chapters, in order (empty for other formats and unchaptered files).
    public var chapters: [Chapter]
    package var format: String
    package var size: Int64
    package var sha256: String
    package var sourceURL: String?
    /// The file's name when it arrived (in the inbox, or inside its archive).
    package var originalName: String
    /// ISO 8601, UTC.
    package var addedAt: String

    package init(path: String, title: String, author: String?, album: String?, duration: Double?, chapters: [Chapter], format: String,
                 size: Int64, sha256: String, sourceURL: String?, originalName: String, addedAt: String) {
        self.path = path
        self.title = title
        self.author = author
        self.album = album
        self.duration = duration
        self.chapters = chapters
        self.format = format
        self.size = size
        self.sha256 = sha256
        self.sourceURL = sourceURL
        self.originalName = originalName
        self.addedAt = addedAt
    }
}

/// A file that was refused, with the sentence a user sees.
public struct Rejection: Sendable, Codable, Equatable {
    /// The refused file's name as it arrived (or the entry's path inside its archive).
    public var fileName: String
    /// Why it is not media, as a sentence (`empty file (0 bytes)`).
    public var reason: String
    package var sha256: String?
    package var sourceURL: String?
    /// Where the refused file now lies, relative to the state folder (nil when it was dropped,
    /// e.g. an unsafe archive entry that was never written).
    public var movedTo: String?
    package var rejectedAt: String

    package init(fileName: String, reason: String, sha256: String?, sourceURL: String?, movedTo: String?, rejectedAt: String) {
        self.fileName = fileName
        self.reason = reason
        self.sha256 = sha256
        self.sourceURL = sourceURL
        self.movedTo = movedTo
        self.rejectedAt = rejectedAt
    }
}

/// A catalog row's time: ISO 8601 with fractions, UTC.
package enum CatalogClock {
    package static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

// `piper library --json` prints every key, with `null` for absent values (as `piper extract
// --json` does), so the encoders spell optionals out instead of omitting them.
extension LibraryItem {
    private enum CodingKeys: String, CodingKey {
        case path, title, author, album, duration, chapters, format, size, sha256, sourceURL, originalName, addedAt
    }

    /// Every key, absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(title, forKey: .title)
        try c.encode(author, forKey: .author)
        try c.encode(album, forKey: .album)
        try c.encode(duration, forKey: .duration)
        try c.encode(chapters, forKey: .chapters)
        try c.encode(format, forKey: .format)
        try c.encode(size, forKey: .size)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(sourceURL, forKey: .sourceURL)
        try c.encode(originalName, forKey: .originalName)
        try c.encode(addedAt, forKey: .addedAt)
    }
}

extension Rejection {
    private enum CodingKeys: String, CodingKey {
        case fileName, reason, sha256, sourceURL, movedTo, rejectedAt
    }

    /// Every key, absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fileName, forKey: .fileName)
        try c.encode(reason, forKey: .reason)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(sourceURL, forKey: .sourceURL)
        try c.encode(movedTo, forKey: .movedTo)
        try c.encode(rejectedAt, forKey: .rejectedAt)
    }
}
