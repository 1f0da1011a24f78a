import Foundation

// The share flow's ports. The core owns these protocols; PiperNet implements them on Linux
// (libcurl, Chromium over CDP, clipboard tools, the cookies file) and the core's tests drive
// them with in-memory fakes. Every call blocks until it is done: the flow runs one step at a time.

/// Which engine loads a page.
public enum LoaderKind: String, Sendable, Equatable, Codable {
    case http, browser
    /// A saved page on the local disk (`piper share page.html`).
    case file
}

/// `--browser auto|always|never`.
public enum BrowserMode: String, Sendable, Equatable, CaseIterable {
    case auto, always, never
}

/// A page as a loader returns it: raw bytes plus what the transport said about them.
public struct LoadedPage: Sendable, Equatable {
    /// The URL the share asked for.
    public var requestedURL: URL
    /// After redirects (or the browser's final location).
    public var finalURL: URL
    /// The HTTP status of the final response.
    public var statusCode: Int
    /// The `Content-Type` header, when there was one.
    public var contentType: String?
    /// The response body, undecoded.
    public var body: Data
    /// Which loader fetched it.
    public var loader: LoaderKind

    /// A loaded page; `finalURL` defaults to `requestedURL`.
    public init(requestedURL: URL, finalURL: URL? = nil, statusCode: Int = 200, contentType: String? = "text/html",
                body: Data, loader: LoaderKind = .http) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL ?? requestedURL
        self.statusCode = statusCode
        self.contentType = contentType
        self.body = body
        self.loader = loader
    }

    /// The `charset` parameter of the Content-Type, handed to the parser as the transport encoding.
    public var charset: String? { ContentType.charset(of: contentType) }
}

/// Loads a page. Errors are `LoadError`s.
public protocol PageLoader: Sendable {
    func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage
    /// A network's API answer for a post (no cookies), whatever its HTTP status: an error
    /// answer's body says why (Mastodon's 404 `{"error": "Record not found"}`), so it is read
    /// before the status becomes an error. Throws only when no answer came.
    func loadAnswer(_ url: URL) throws -> LoadedPage
}

extension PageLoader {
    /// A loader that knows no API answers loads the URL as a page.
    public func loadAnswer(_ url: URL) throws -> LoadedPage { try load(url, cookies: []) }
}

/// What the flow saves: the article's title and its HTML content, plus what extraction found
/// out about it (`metadata`, the one type the save body and the stores carry too). Encoded flat
/// (`{title, content, sourceURL, byline, …}`), each metadata field only when present, so the
/// body stays `{title, content}` when nothing is known.
public struct ExtractedArticle: Sendable, Equatable, Codable {
    /// The article's title.
    public var title: String
    /// The article's HTML.
    public var content: String
    /// Where it came from, who wrote it, when, in which language.
    public var metadata: ArticleMetadata

    /// An article with its title, HTML and metadata.
    public init(title: String, content: String, metadata: ArticleMetadata) {
        self.title = title
        self.content = content
        self.metadata = metadata
    }

    /// An article with its title, HTML and metadata fields.
    public init(title: String, content: String, sourceURL: String? = nil, byline: String? = nil, siteName: String? = nil,
                publishedTime: String? = nil, lang: String? = nil, dir: String? = nil, excerpt: String? = nil) {
        self.init(title: title, content: content,
                  metadata: ArticleMetadata(sourceURL: sourceURL, byline: byline, siteName: siteName, publishedTime: publishedTime,
                                            lang: lang, dir: dir, excerpt: excerpt))
    }

    /// The page the article came from.
    public var sourceURL: String? { get { metadata.sourceURL } set { metadata.sourceURL = newValue } }
    /// The author line, when found.
    public var byline: String? { get { metadata.byline } set { metadata.byline = newValue } }
    /// The site's name, when found.
    public var siteName: String? { get { metadata.siteName } set { metadata.siteName = newValue } }
    /// The publication time, as the page wrote it.
    public var publishedTime: String? { get { metadata.publishedTime } set { metadata.publishedTime = newValue } }
    /// The page's language.
    public var lang: String? { get { metadata.lang } set { metadata.lang = newValue } }
    /// The text direction.
    public var dir: String? { get { metadata.dir } set { metadata.dir = newValue } }
    /// A short excerpt.
    public var excerpt: String? { get { metadata.excerpt } set { metadata.excerpt = newValue } }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        title = try container.decode(String.self, forKey: Key("title"))
        content = try container.decode(String.self, forKey: Key("content"))
        metadata = ArticleMetadata()
        for field in ArticleMetadata.fields {
            metadata[keyPath: field.keyPath] = try container.decodeIfPresent(String.self, forKey: Key(field.name))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(title, forKey: Key("title"))
        try container.encode(content, forKey: Key("content"))
        for field in ArticleMetadata.fields {
            try container.encodeIfPresent(metadata[keyPath: field.keyPath], forKey: Key(field.name))
        }
    }
}

/// Turns a loaded page into an article. Errors are `ExtractionError`s.
public protocol ContentExtractor: Sendable {
    func extract(_ page: LoadedPage) throws -> ExtractedArticle
    /// A quick check (Readability's `isProbablyReaderable`) used to decide whether a plain HTTP
    /// load is good enough or the page needs a browser.
    func isReaderable(_ page: LoadedPage) -> Bool
    /// The share flow's parse step: the page parsed once, for the steps after it.
    func parse(_ page: LoadedPage) -> ParsedPage
    /// `extract` on the parse (which it may change: the flow extracts last).
    func extract(_ page: ParsedPage) throws -> ExtractedArticle
    /// `isReaderable` on the parse (reading it only).
    func isReaderable(_ page: ParsedPage) -> Bool
    /// A post (X's page, or a network's API answers) as the article to save, or its failure.
    func readPost(_ post: FetchedPost) throws -> ExtractedArticle
}

extension ContentExtractor {
    /// An extractor that keeps no parse reads the bytes at each step.
    public func parse(_ page: LoadedPage) -> ParsedPage { ParsedPage(page: page, tree: nil) }
    public func extract(_ page: ParsedPage) throws -> ExtractedArticle { try extract(page.page) }
    public func isReaderable(_ page: ParsedPage) -> Bool { isReaderable(page.page) }
    /// An extractor that knows no posts finds no article in one.
    public func readPost(_ post: FetchedPost) throws -> ExtractedArticle { throw ExtractionError.notAnArticle(post.source.url) }
}

/// Posts an article to the backend's `/save` and returns the reader URL. Errors are `SaveError`s.
public protocol SaveClient: Sendable {
    func save(_ article: ExtractedArticle) throws -> URL
    /// The same save, with when the link expires if the backend said. The default knows only the URL.
    func saveCopy(_ article: ExtractedArticle) throws -> SaveReceipt
}

extension SaveClient {
    /// Saves and returns the URL with no expiry.
    public func saveCopy(_ article: ExtractedArticle) throws -> SaveReceipt { SaveReceipt(url: try save(article)) }
}

/// What a successful save returned: the reader URL, and when it stops working (nil: unknown).
public struct SaveReceipt: Sendable, Equatable {
    /// The reader URL.
    public var url: URL
    /// When the link stops working, when the backend said.
    public var expires: Date?

    /// A receipt for `url`.
    public init(url: URL, expires: Date? = nil) {
        self.url = url
        self.expires = expires
    }
}

/// Puts text on the system clipboard. Returns the mechanism used (e.g. "xclip").
public protocol Clipboard: Sendable {
    func copy(_ text: String) throws -> String
}

/// Where the user's X cookies live (the state folder's `cookies.txt` on Linux).
public protocol CookieStore: Sendable {
    func load() throws -> CookieJar
    func save(_ jar: CookieJar) throws
    /// Removes the stored cookies; returns false when there were none.
    @discardableResult func remove() throws -> Bool
}

/// Progress lines for the user (stderr in the CLI).
public protocol ShareReporter: Sendable {
    func progress(_ message: String)
}

extension ExtractedArticle {
    /// The title to use when the page gives none: the link's host and last path segment,
    /// e.g. "example.com — my-post".
    public static func fallbackTitle(for url: URL) -> String {
        let host = url.host ?? url.absoluteString
        let last = url.pathComponents.last(where: { $0 != "/" }) ?? ""
        return last.isEmpty ? host : "\(host) — \(last)"
    }

    /// This article with a fallback title when its own is blank.
    public func withTitleFallback(for url: URL) -> ExtractedArticle {
        let trimmed = title.trimmingWhitespaceAndNewlines()
        var copy = self
        copy.title = trimmed.isEmpty ? Self.fallbackTitle(for: url) : trimmed
        return copy
    }
}
