import Foundation
import HTML
import PiperCore

/// A fetched post as the article a share saves: X's rendered page, or the answers of
/// Mastodon's, Bluesky's or Reddit's API, read into the thread and made a `PostPage`. X's login
/// wall is the share flow's own failure (`ShareFailure.connectX`: "Open Piper to connect your X
/// account"); every other failure is a `PostFailure` naming its network.
public enum PostReader {
    public static func article(_ post: FetchedPost) throws -> ExtractedArticle {
        var lang: String?
        let thread: PostThread
        do {
            switch post.source.network {
            case .x:
                guard let page = post.answers.first else { throw PostFailure(.noPost, on: .x) }
                let document = Document.parse(bytes: Array(page.body))
                thread = try XPage.thread(document, url: page.finalURL)
                lang = document.node.querySelector("[data-testid=\"tweetText\"]")?.getAttribute("lang")
            case .mastodon: thread = try MastodonThread.thread(post.answers)
            case .bluesky: thread = try BlueskyThread.thread(post.answers)
            case .reddit: thread = try RedditThread.thread(post)
            }
        } catch let failure as PostFailure where failure.network == .x && failure.reason == .needsLogin {
            throw ShareFailure.connectX
        }
        let page = try PostPage(thread)
        return ExtractedArticle(title: page.title, content: page.html, sourceURL: page.canonicalURL, byline: page.byline,
                                siteName: page.siteName, publishedTime: page.published, lang: lang, excerpt: page.excerpt)
    }
}
