import Foundation

/// A list of media files shared as one thing: an M3U/M3U8 of plain URLs, a PLS, or an RSS or
/// Atom podcast feed. Parsed here, without I/O; the media route turns it into one library
/// folder with one download job per entry, in order.
public struct Playlist: Sendable, Equatable {
    /// One item of a playlist or feed.
    public struct Entry: Sendable, Equatable {
        /// The media file's URL (resolved against the playlist's).
        public var url: URL
        /// The item's title, when the playlist gives one.
        public var title: String?
        /// A feed item's own page (RSS `<link>`, Atom `rel="alternate"`), when it names one.
        public var page: URL?
        /// A feed item's identity (RSS `<guid>`, Atom `<id>`), which outlives a rewritten enclosure URL.
        public var guid: String?
        /// When a feed item was published (RSS `<pubDate>`, Atom `<published>` or `<updated>`).
        public var published: Date?
        /// An entry with its URL, title and the page it belongs to.
        public init(url: URL, title: String? = nil, page: URL? = nil, guid: String? = nil, published: Date? = nil) {
            self.url = url
            self.title = title
            self.page = page
            self.guid = guid
            self.published = published
        }
    }

    /// The playlist's format.
    public enum Kind: String, Sendable, Equatable { case m3u, pls, feed }

    /// The format it was read from.
    public var kind: Kind
    /// The playlist's or feed's own title, when it has one (the folder's name).
    public var title: String?
    /// In play order (a feed: newest first, as feeds list them).
    public var entries: [Entry]
    /// How many entries were asked for (`--newest N`), when a limit was given: a feed that
    /// lists fewer gives fewer, and the share says so.
    public var asked: Int?
    /// How long a feed asks readers to wait between checks (RSS `<ttl>` minutes, or
    /// `sy:updatePeriod` / `sy:updateFrequency`), in seconds; nil when it says nothing.
    public var checkInterval: TimeInterval?
    /// The feed's new address when it says it moved (`itunes:new-feed-url`).
    public var newFeedURL: URL?

    /// Why a playlist or feed could not be read.
    public enum ParseError: PiperError, Equatable {
        case hlsStream
        case empty(Kind)

        /// The sentence a user sees.
        public var description: String {
            switch self {
            case .hlsStream: return "This is an HLS stream (a playlist of segments), which Piper does not download; share the episode's file or page instead"
            case .empty(let kind): return "The \(kind == .feed ? "feed" : "playlist") names no media files"
            }
        }
        /// An unreadable playlist is bad input data.
        public var category: ErrorCategory { .badData }
    }

    static let m3uTypes: Set<String> = ["audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/vnd.apple.mpegurl"]
    static let plsTypes: Set<String> = ["audio/x-scpls", "application/pls+xml"]
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/xml", "text/xml"]

    /// What kind of playlist a link is, by its extension or (for feeds, only by) its
    /// Content-Type; nil when it is none.
    public static func kind(of url: URL, contentType: String?) -> Kind? {
        switch url.pathExtension.lowercased() {
        case "m3u", "m3u8": return .m3u
        case "pls": return .pls
        case "rss": return .feed
        default: break
        }
        guard let type = ContentType.mediaType(of: contentType) else { return nil }
        if m3uTypes.contains(type) { return .m3u }
        if plsTypes.contains(type) { return .pls }
        if feedTypes.contains(type) { return .feed }
        return nil
    }

    /// Parses `data` (fetched from `base`) as `kind`. A feed keeps its newest `limit` entries
    /// (nil: all). Relative entries resolve against `base`; only http(s) entries are kept.
    public static func parse(_ data: Data, kind: Kind, base: URL, limit: Int? = nil) throws -> Playlist {
        let text = String(decoding: data, as: UTF8.self)
        var playlist: Playlist
        switch kind {
        case .m3u: playlist = try parseM3U(text, base: base)
        case .pls: playlist = parsePLS(text, base: base)
        case .feed: playlist = FeedScanner.parse(text, base: base)
        }
        if let limit, kind == .feed {
            playlist.entries = Array(playlist.entries.prefix(limit))
            playlist.asked = limit
        }
        guard !playlist.entries.isEmpty else { throw ParseError.empty(kind) }
        return playlist
    }

    static func parseM3U(_ text: String, base: URL) throws -> Playlist {
        var entries: [Entry] = []
        var pendingTitle: String?
        var title: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#EXT-X-TARGETDURATION") || line.hasPrefix("#EXT-X-MEDIA-SEQUENCE") || line.hasPrefix("#EXT-X-STREAM-INF") {
                throw ParseError.hlsStream
            }
            if line.hasPrefix("#EXTINF:") {
                // `#EXTINF:123,Artist - Title`
                pendingTitle = line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]).trimmingCharacters(in: .whitespaces) }
                continue
            }
            if line.hasPrefix("#PLAYLIST:") { title = String(line.dropFirst(10)).trimmingCharacters(in: .whitespaces); continue }
            if line.hasPrefix("#") { continue }
            if let url = resolve(line, base: base) { entries.append(Entry(url: url, title: pendingTitle?.nonEmpty)) }
            pendingTitle = nil
        }
        return Playlist(kind: .m3u, title: title, entries: entries)
    }

    static func parsePLS(_ text: String, base: URL) -> Playlist {
        var files: [Int: URL] = [:]
        var titles: [Int: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("file"), let n = Int(key.dropFirst(4)), let url = resolve(value, base: base) { files[n] = url }
            if key.hasPrefix("title"), let n = Int(key.dropFirst(5)) { titles[n] = value }
        }
        let entries = files.keys.sorted().map { Entry(url: files[$0]!, title: titles[$0]?.nonEmpty) }
        return Playlist(kind: .pls, title: nil, entries: entries)
    }

    /// The feeds an HTML page links as its own (`<link rel="alternate" type="application/rss+xml">`).
    public static func feedLinks(inPage html: String, base: URL) -> [URL] {
        FeedScanner.feedLinks(in: html, base: base)
    }

    static func resolve(_ text: String, base: URL) -> URL? {
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL, WebURL.isWeb(url) else { return nil }
        return url
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
