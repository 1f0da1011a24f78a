import Foundation

/// What is known of an article besides its title and HTML, all optional: the one type the
/// extractor fills (`ExtractedArticle.metadata`), the save body carries (flat, beside title and
/// content), `POST /save` validates and the stores keep.
public struct ArticleMetadata: Sendable, Equatable {
    /// The page the article was extracted from (http or https).
    public var sourceURL: String?
    /// The author line.
    public var byline: String?
    /// The site's name.
    public var siteName: String?
    /// The publication time, as the page gave it (usually ISO 8601).
    public var publishedTime: String?
    /// A BCP 47 language tag.
    public var lang: String?
    /// `ltr`, `rtl` or `auto`.
    public var dir: String?
    /// A short excerpt.
    public var excerpt: String?

    public init(sourceURL: String? = nil, byline: String? = nil, siteName: String? = nil, publishedTime: String? = nil,
                lang: String? = nil, dir: String? = nil, excerpt: String? = nil) {
        self.sourceURL = sourceURL
        self.byline = byline
        self.siteName = siteName
        self.publishedTime = publishedTime
        self.lang = lang
        self.dir = dir
        self.excerpt = excerpt
    }

    /// Every field: its name in a save body, its name as a store column, and where it lives.
    public static let fields: [(name: String, column: String, keyPath: WritableKeyPath<ArticleMetadata, String?> & Sendable)] = [
        ("sourceURL", "source_url", \.sourceURL), ("byline", "byline", \.byline), ("siteName", "site_name", \.siteName),
        ("publishedTime", "published_time", \.publishedTime), ("lang", "lang", \.lang), ("dir", "dir", \.dir),
        ("excerpt", "excerpt", \.excerpt),
    ]

    /// The field a save body names `name`.
    public subscript(field name: String) -> String? {
        Self.fields.first { $0.name == name }.flatMap { self[keyPath: $0.keyPath] }
    }

    /// True when no field is known.
    public var isEmpty: Bool { Self.fields.allSatisfy { self[keyPath: $0.keyPath] == nil } }
}
