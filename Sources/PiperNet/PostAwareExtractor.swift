import Foundation
import HTML
import PiperCore
import Posts

/// The `ContentExtractor` that knows posts: a page on X (x.com, twitter.com, or a host named in
/// `PIPER_X_HOSTS`: a mirror front end people read X through, or a local name in tests) is read
/// as a post thread (`XPage`: the post, its author's thread, its quote; never others'
/// replies), and X's failure pages are failures with their own sentences, never a saved page of
/// X's chrome. Every other page goes to `articles`.
public struct PostAwareExtractor: ContentExtractor {
    public var articles: any ContentExtractor
    /// Extra hosts whose pages are X pages.
    public var xHosts: Set<String>
    /// Fetches a network's public API for a Mastodon status or a Bluesky post (the share's own
    /// loader: on a server, behind its guard); nil reads such pages as articles.
    public var fetch: (@Sendable (URL) throws -> Data)?
    /// Hosts whose pages are Bluesky's (`bsky.app`, and `PIPER_BLUESKY_HOSTS`).
    public var blueskyHosts: Set<String>
    /// The public AppView that answers `getPostThread` (`PIPER_BLUESKY_APPVIEW`).
    public var blueskyAppView: String

    public init(articles: any ContentExtractor, xHosts: Set<String> = PostAwareExtractor.xHosts(),
                fetch: (@Sendable (URL) throws -> Data)? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.articles = articles
        self.xHosts = xHosts
        self.fetch = fetch
        blueskyHosts = Set(["bsky.app"] + Self.list(environment["PIPER_BLUESKY_HOSTS"]))
        blueskyAppView = environment["PIPER_BLUESKY_APPVIEW"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://public.api.bsky.app"
    }

    /// A loader's fetch for the networks' APIs: the body of a 200 answer.
    public static func fetch(with loader: any PageLoader) -> @Sendable (URL) throws -> Data {
        { url in
            let page = try loader.load(url, cookies: [])
            guard page.statusCode == 200 else { throw PostPageError(failure: page.statusCode == 404 ? .deleted : .noPost, url: url) }
            return page.body
        }
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The extra X hosts: `PIPER_X_HOSTS` (host names, comma-separated) when set, else `xHosts`
    /// in the config file (`piper config set x-hosts …`).
    public static func xHosts(environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        if let listed = environment["PIPER_X_HOSTS"], !listed.isEmpty { return Set(ConfigFile.hostList(listed)) }
        let location = ConfigLocation.resolve(environment: environment)
        let file = (try? ConfigFile.read(location.file)) ?? location.legacy.flatMap { try? ConfigFile.read($0) }
        return Set(ConfigFile.hostList(file?.xHosts))
    }

    public func isXPage(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        return XLinks.isXHost(host) || xHosts.contains(host)
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        if let thread = try apiThread(page) {
            let post = try PostPage(thread)
            return ExtractedArticle(title: post.title, content: post.html, sourceURL: post.canonicalURL, byline: post.byline,
                                    siteName: post.siteName, publishedTime: post.published, excerpt: post.excerpt)
        }
        guard isXPage(page.finalURL) else { return try articles.extract(page) }
        let document = Document.parse(bytes: Array(page.body))
        do {
            let post = try PostPage(try XPage.thread(document, url: page.finalURL))
            let lang = document.node.querySelector("[data-testid=\"tweetText\"]")?.getAttribute("lang")
            return ExtractedArticle(title: post.title, content: post.html, sourceURL: post.canonicalURL, byline: post.byline,
                                    siteName: post.siteName, publishedTime: post.published, lang: lang, excerpt: post.excerpt)
        } catch let failure as PostFailure {
            if failure == .needsLogin { throw ShareFailure.connectX }
            throw PostPageError(failure: failure, url: page.finalURL)
        }
    }

    /// A page read as a post (from its own parse or the network's API), not as an article.
    func isPostPage(_ page: LoadedPage) -> Bool {
        isXPage(page.finalURL) || fetch != nil && (isMastodonStatus(page) || isBlueskyPost(page.finalURL))
    }

    /// A post page keeps no shared parse (X's is read with its own options); an article's is
    /// the article extractor's.
    public func parse(_ page: LoadedPage) -> ParsedPage {
        isPostPage(page) ? ParsedPage(page: page, tree: nil) : articles.parse(page)
    }

    public func extract(_ parsed: ParsedPage) throws -> ExtractedArticle {
        isPostPage(parsed.page) ? try extract(parsed.page) : try articles.extract(parsed)
    }

    public func isReaderable(_ parsed: ParsedPage) -> Bool {
        isPostPage(parsed.page) || isMastodonStatus(parsed.page) || isBlueskyPost(parsed.page.finalURL) ? true : articles.isReaderable(parsed)
    }

    public func isReaderable(_ page: LoadedPage) -> Bool {
        isXPage(page.finalURL) || isMastodonStatus(page) || isBlueskyPost(page.finalURL) ? true : articles.isReaderable(page)
    }

    /// A Mastodon status page: a status path (`/@user/ID`) on a page Mastodon's web app serves
    /// (its root element is `#mastodon`).
    func isMastodonStatus(_ page: LoadedPage) -> Bool {
        guard MastodonThread.statusID(page.finalURL) != nil else { return false }
        return page.body.range(of: Data("id=\"mastodon\"".utf8)) != nil || page.body.range(of: Data("id='mastodon'".utf8)) != nil
    }

    func isBlueskyPost(_ url: URL) -> Bool {
        url.host.map { blueskyHosts.contains($0.lowercased()) } == true && BlueskyThread.atURI(url) != nil
    }

    /// A Mastodon or Bluesky thread, read from the network's public API; nil for other pages.
    func apiThread(_ page: LoadedPage) throws -> PostThread? {
        guard let fetch else { return nil }
        let url = page.finalURL
        do {
            if isMastodonStatus(page), let id = MastodonThread.statusID(url), let scheme = url.scheme, let host = url.host {
                let base = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/api/v1/statuses/\(id)"
                guard let status = URL(string: base), let context = URL(string: base + "/context") else { return nil }
                return try MastodonThread.thread(status: try fetch(status), context: try fetch(context))
            }
            if isBlueskyPost(url), let uri = BlueskyThread.atURI(url),
               let encoded = uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
               let api = URL(string: "\(blueskyAppView)/xrpc/app.bsky.feed.getPostThread?uri=\(encoded)&depth=20&parentHeight=0") {
                return try BlueskyThread.thread(try fetch(api))
            }
        } catch let failure as PostFailure {
            throw PostPageError(failure: failure, url: url)
        }
        return nil
    }
}

/// An X page that held no post: its sentence, and what kind of failure it is (exit status).
public struct PostPageError: PiperError, Equatable {
    public let failure: PostFailure
    public let url: URL

    public init(failure: PostFailure, url: URL) {
        self.failure = failure
        self.url = url
    }

    public var description: String { failure.description }

    public var category: ErrorCategory {
        switch failure {
        case .siteError, .rateLimited: return .unavailable
        case .deleted, .protected, .noPost: return .badData
        case .needsLogin, .ageRestricted: return .configuration
        }
    }
}
