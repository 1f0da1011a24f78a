import Foundation
import PiperCore

/// A post on a social network, as a reader wants it: who wrote it, when, its content warning,
/// its title (Reddit's), its text with its line breaks and links, its pictures (with their alt
/// text or caption), a video as its poster and a link, a link card, and the post it quotes (or
/// why the quoted post is not shown).
public struct Post: Sendable, Equatable {
    public struct Author: Sendable, Equatable {
        public var name: String
        /// Without the `@`; for Mastodon `user@instance` (instance-qualified, as its pages show).
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
        /// The video's description, when its author wrote one.
        public var alt: String?
        public init(poster: String?, link: String, alt: String? = nil) { self.poster = poster; self.link = link; self.alt = alt }
    }

    /// A link card: the link, its page's title and description, and the site's domain.
    public struct Card: Sendable, Equatable {
        public var url: String
        public var title: String?
        public var description: String?
        public var domain: String?
        public init(url: String, title: String?, description: String? = nil, domain: String? = nil) {
            self.url = url
            self.title = title
            self.description = description.flatMap { $0.isEmpty ? nil : $0 }
            self.domain = domain.flatMap { $0.isEmpty ? nil : $0 }
        }
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
    /// A content warning the author put before the text (Mastodon's `spoiler_text`).
    public var contentWarning: String?
    /// The post's own title (Reddit's), and the community it was posted in (`r/sub`).
    public var title: String?
    public var community: String?
    public var text: [Run]
    public var images: [Image]
    public var video: Video?
    public var card: Card?
    /// The quoted post (a box: a post holds at most one, which holds none).
    public var quote: Quoted?
    /// Why a quoted post is not shown ("The quoted post was deleted"), or what else the post
    /// embeds that is not a post (a feed, a list: a card says where).
    public var quoteNote: String?

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
