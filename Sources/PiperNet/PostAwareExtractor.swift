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

    public init(articles: any ContentExtractor, xHosts: Set<String> = PostAwareExtractor.xHosts()) {
        self.articles = articles
        self.xHosts = xHosts
    }

    /// `PIPER_X_HOSTS`: host names, comma-separated.
    public static func xHosts(environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        Set((environment["PIPER_X_HOSTS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }

    public func isXPage(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        return XLinks.isXHost(host) || xHosts.contains(host)
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
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

    public func isReaderable(_ page: LoadedPage) -> Bool {
        isXPage(page.finalURL) ? true : articles.isReaderable(page)
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
