import Foundation

/// What a save says about where its article came from, all optional: older clients send none
/// of it. Validated by `SaveInput` before it reaches a store; the reader page shows it.
public struct ArticleMetadata: Sendable, Equatable {
    /// The page the article was extracted from (http or https).
    public var sourceURL: String?
    public var byline: String?
    public var siteName: String?
    /// As the page gave it (usually ISO 8601).
    public var publishedTime: String?
    /// A BCP 47 language tag.
    public var lang: String?
    /// `ltr`, `rtl` or `auto`.
    public var dir: String?
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

    /// The fields in the order the stores keep their columns.
    var columns: [String?] { [sourceURL, byline, siteName, publishedTime, lang, dir, excerpt] }

    /// The inverse of `columns`.
    init(columns: [String?]) {
        func at(_ i: Int) -> String? { i < columns.count ? columns[i] : nil }
        self.init(sourceURL: at(0), byline: at(1), siteName: at(2), publishedTime: at(3), lang: at(4), dir: at(5), excerpt: at(6))
    }

    /// Column names, matching `columns`.
    static let columnNames = ["source_url", "byline", "site_name", "published_time", "lang", "dir", "excerpt"]
}
