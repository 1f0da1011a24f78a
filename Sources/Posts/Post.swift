import Foundation

/// A post on a social network, as a reader wants it: who wrote it, when, its text with its
/// line breaks and links, its pictures (with their alt text), a video as its poster and a
/// link, a link card, and the post it quotes.
public struct Post: Sendable, Equatable {
    public struct Author: Sendable, Equatable {
        public var name: String
        /// Without the `@`; for Mastodon `user@instance`.
        public var handle: String
        public var url: String?
        public init(name: String, handle: String, url: String? = nil) { self.name = name; self.handle = handle; self.url = url }
    }

    public struct Image: Sendable, Equatable {
        public var source: String
        public var alt: String?
        public init(source: String, alt: String?) { self.source = source; self.alt = alt }
    }

    public struct Video: Sendable, Equatable {
        public var poster: String?
        /// Where the video can be watched (the post itself when nothing better is known).
        public var link: String
        public init(poster: String?, link: String) { self.poster = poster; self.link = link }
    }

    public struct Card: Sendable, Equatable {
        public var url: String
        public var title: String?
        public init(url: String, title: String?) { self.url = url; self.title = title }
    }

    /// A piece of a post's text: words (kept with their line breaks) or a link.
    public enum Run: Sendable, Equatable {
        case text(String)
        case link(text: String, url: String)
    }

    public var author: Author
    public var url: String
    /// As the network gives it (ISO 8601).
    public var published: String?
    public var text: [Run]
    public var images: [Image]
    public var video: Video?
    public var card: Card?
    /// The quoted post (a box: a post holds at most one, which holds none).
    public var quote: Quoted?

    public init(author: Author, url: String, published: String? = nil, text: [Run] = [], images: [Image] = [],
                video: Video? = nil, card: Card? = nil, quote: Post? = nil) {
        self.author = author
        self.url = url
        self.published = published
        self.text = text
        self.images = images
        self.video = video
        self.card = card
        self.quote = quote.map(Quoted.init)
    }

    /// The text without markup.
    public var plainText: String {
        text.map { run in
            switch run {
            case .text(let words): return words
            case .link(let text, _): return text
            }
        }.joined()
    }

    /// A quoted post, boxed so a post can hold one.
    public final class Quoted: Sendable, Equatable {
        public let post: Post
        init(_ post: Post) { self.post = post }
        public static func == (a: Quoted, b: Quoted) -> Bool { a.post == b.post }
    }
}

/// The networks Piper reads posts from.
public enum PostNetwork: String, Sendable, Equatable {
    case x = "X", mastodon = "Mastodon", bluesky = "Bluesky"
}

/// A post and its author's own thread under it (their consecutive replies, in order): never
/// other people's replies.
public struct PostThread: Sendable, Equatable {
    public var network: PostNetwork
    public var posts: [Post]

    public init(network: PostNetwork, posts: [Post]) {
        self.network = network
        self.posts = posts
    }

    public var main: Post? { posts.first }
}

/// Builds a post's runs as a walk meets them: words joined into one run until a link.
struct RunBuilder {
    private(set) var runs: [Post.Run] = []

    mutating func words(_ text: String) {
        guard !text.isEmpty else { return }
        if case .text(let before)? = runs.last { runs[runs.count - 1] = .text(before + text) } else { runs.append(.text(text)) }
    }

    mutating func link(_ text: String, url: String) { runs.append(.link(text: text, url: url)) }
}
