import Foundation

/// A media file a web page names as its subject: an episode page's audio, a video page's file.
public struct DiscoveredMedia: Sendable, Equatable {
    /// The media file's URL.
    public var url: URL
    /// Which signal named it (`json-ld`, `og:audio`, `audio`, `link`…), for messages and tests.
    public var signal: String
    /// The page's title and author, for the library when the file's tags have none.
    public var title: String?
    /// The page's author, when it names one.
    public var author: String?

    /// Media found by `signal`, with the page's title and author.
    public init(url: URL, signal: String, title: String? = nil, author: String? = nil) {
        self.url = url
        self.signal = signal
        self.title = title
        self.author = author
    }
}

/// Looks for the media a loaded HTML page names. A port: the share flow asks it before taking
/// a page as an article.
public protocol MediaFinder: Sendable {
    /// What the page says about itself and the media it names, read from the parse (no fetch).
    func evidence(in page: ParsedPage) -> RouteEvidence
    /// The episode one of `feeds` names for this page (the item whose link is the page), or nil.
    func searchFeeds(_ feeds: [URL], for page: ParsedPage) -> DiscoveredMedia?
    /// The file one of `players` (known podcast hosts' player pages the page embeds) plays, or nil.
    func followPlayers(_ players: [URL], for page: ParsedPage) -> DiscoveredMedia?
}

extension MediaFinder {
    /// Finders that follow no players name nothing there.
    public func followPlayers(_ players: [URL], for page: ParsedPage) -> DiscoveredMedia? { nil }
}

/// `--as article|media`: which route a shared page takes, when it's not to be decided for it.
public enum RoutePreference: String, Sendable, Equatable, CaseIterable {
    /// Media when the page names its media, else the article.
    case auto
    case article
    case media
}
