import Foundation

/// Which links take the media route. The allow-list lives here, in the core, so the share
/// sheet, the CLI and the agent agree on it.
public enum MediaLinks {
    /// Path extensions accepted as media downloads.
    public static let allowedExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "flac", "ogg", "opus", "wav", "wma", "aiff", "aif", "caf",
        "mp4", "m4v", "mov", "zip",
    ]

    /// The allowed extensions that name audio.
    public static let audioExtensions: Set<String> = ["mp3", "m4a", "m4b", "aac", "flac", "ogg", "opus", "wav", "wma", "aiff", "aif", "caf"]

    /// True when the URL's path extension is on the allow-list (after share-link rewriting).
    public static func hasMediaExtension(_ url: URL) -> Bool {
        MediaLink(url).hasMediaExtension
    }

    /// True for a `Content-Type` that makes an extension-less link a media download. Playlist
    /// types (`audio/x-mpegurl`, `audio/x-scpls`, …) are lists of media, not media.
    public static func isMediaContentType(_ contentType: String?) -> Bool {
        guard let raw = contentType?.split(separator: ";").first else { return false }
        let type = raw.trimmingWhitespace().lowercased()
        if Playlist.m3uTypes.contains(type) || Playlist.plsTypes.contains(type) { return false }
        return type.hasPrefix("audio/") || type.hasPrefix("video/") || type == "application/zip"
            || type == "application/x-zip-compressed"
    }

    /// Rewrites "share" links that would fetch a preview page into direct downloads:
    /// Dropbox `?dl=0` → `?dl=1`; Google Drive `/file/d/<id>/view` → `uc?export=download&id=<id>`.
    public static func directDownloadURL(for url: URL) -> URL {
        guard let host = url.host?.lowercased(), var comps = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        if host == "dropbox.com" || host.hasSuffix(".dropbox.com") {
            var items = (comps.queryItems ?? []).filter { $0.name != "dl" && $0.name != "raw" }
            items.append(URLQueryItem(name: "dl", value: "1"))
            comps.queryItems = items
            return comps.url ?? url
        }
        if host == "drive.google.com" {
            let parts = url.pathComponents
            if let i = parts.firstIndex(of: "d"), i > 0, parts[i - 1] == "file", i + 1 < parts.count {
                var direct = URLComponents()
                direct.scheme = "https"
                direct.host = "drive.google.com"
                direct.path = "/uc"
                direct.queryItems = [URLQueryItem(name: "export", value: "download"), URLQueryItem(name: "id", value: parts[i + 1])]
                return direct.url ?? url
            }
        }
        return url
    }
}

/// What the media route answers when a link or file has been durably queued.
public struct MediaReceipt: Sendable, Equatable, Codable {
    /// The journal entry's id (`piper downloads` shows it).
    public var id: String
    /// The link or file that was queued.
    public var url: String
    /// True when the same source was already queued (nothing new was added).
    public var alreadyQueued: Bool
    /// The sentence printed for this share.
    public var message: String
    /// Set when the link was already downloaded into the library (the download archive): where
    /// it is there, relative to the library. Nothing was queued.
    public var alreadyInLibrary: String?
    /// For a playlist: `id` names the group of jobs, and this is how many it holds.
    public var groupSize: Int?
    /// The link was a podcast feed (which can be followed, `piper follow`).
    public var feed: Bool?

    /// A receipt for the queued job `id`.
    public init(id: String, url: String, alreadyQueued: Bool = false, message: String, alreadyInLibrary: String? = nil,
                groupSize: Int? = nil) {
        self.id = id
        self.url = url
        self.alreadyQueued = alreadyQueued
        self.message = message
        self.alreadyInLibrary = alreadyInLibrary
        self.groupSize = groupSize
    }
}

/// The port through which the share flow hands media to the durable download/import pipeline.
/// Implementations write the job durably and make sure a worker will finish it, then return at
/// once: the share never waits on the download.
public protocol MediaQueue: Sendable {
    func enqueue(url: URL, into folder: String?) throws -> MediaReceipt
    /// A local file: copied into the inbox atomically, then imported.
    func enqueue(file: URL, into folder: String?) throws -> MediaReceipt
    /// A playlist or feed (shared as `source`): one job per entry, together one library folder.
    func enqueue(playlist: Playlist, source: URL, into folder: String?) throws -> MediaReceipt
    /// A link with what the share already knows of it: its direct download URL, the page's
    /// title and author (for tags the file lacks), the Content-Type its server answered.
    func enqueue(_ link: MediaLink, into folder: String?) throws -> MediaReceipt
}

/// A media link as the share flow hands it to the queue, with what the flow already knows: the
/// direct download URL (share links rewritten, once, here), the page that named it (its title
/// and author), and the `Content-Type` its server answered when the flow loaded it (so the
/// queue need not ask again).
public struct MediaLink: Sendable, Equatable {
    /// The link as shared.
    public var shared: URL
    /// What to download: `shared` with Dropbox's and Google Drive's share links made direct.
    public var direct: URL
    /// The server's `Content-Type`, when the flow loaded the link.
    public var contentType: String?
    /// The page's title and author, when a page named the file.
    public var title: String?
    public var author: String?

    /// `shared`, its direct download URL worked out now.
    public init(_ shared: URL, contentType: String? = nil, title: String? = nil, author: String? = nil) {
        self.shared = shared
        self.direct = MediaLinks.directDownloadURL(for: shared)
        self.contentType = contentType
        self.title = title
        self.author = author
    }

    /// The direct URL's extension is on the allow-list.
    public var hasMediaExtension: Bool { MediaLinks.allowedExtensions.contains(direct.pathExtension.lowercased()) }
    /// Known to be media without asking: by its extension, or by the Content-Type its server gave.
    public var isKnownMedia: Bool { hasMediaExtension || MediaLinks.isMediaContentType(contentType) }
}

extension MediaQueue {
    /// Queues the link alone; queues that keep what the flow knows override it.
    public func enqueue(_ link: MediaLink, into folder: String?) throws -> MediaReceipt {
        try enqueue(url: link.direct, into: folder)
    }

    /// Queues a playlist's entries one by one; queues that keep groups override it.
    public func enqueue(playlist: Playlist, source: URL, into folder: String?) throws -> MediaReceipt {
        var last: MediaReceipt?
        for entry in playlist.entries { last = try enqueue(url: entry.url, into: folder) }
        guard let last else { throw Playlist.ParseError.empty(playlist.kind) }
        return last
    }
}
