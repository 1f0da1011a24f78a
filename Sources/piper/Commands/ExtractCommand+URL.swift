import Foundation
import PiperCore
import PiperNet

extension ExtractCommand {
    /// Loads `url` as `piper share` would (PiperCore's `ShareDriver.articlePage`): the stored X
    /// cookies, Chromium for X/Twitter links and pages that need it (`browser`), plain HTTP
    /// otherwise; a post (X, Mastodon, Bluesky, Reddit) is read as the share reads it, its
    /// network's API fetched through the same client. Nothing is saved, copied or queued.
    static func load(_ url: URL, browser: BrowserMode) throws -> ArticleSource {
        let environment = ProcessInfo.processInfo.environment
        let state = StateFolder.resolve(environment: environment)
        let ports = SharePorts(
            cookies: FileCookieStore(state: state), httpLoader: HTTPPageLoader(),
            browserLoader: BrowserPageLoader.system(environment: environment),
            extractor: PostAwareExtractor(articles: ReadabilityExtractor()), saver: NoSave(), clipboard: NoClipboard(), media: nil,
            reporter: DetailReporter())
        var options = ShareFlow.Options(browser: browser, copyToClipboard: false)
        options.posts = PostLinks.from(environment: environment)
        return try ShareDriver(ports: ports).articlePage(for: url, options: options)
    }
}

/// The loaders' progress ("Loading … in Chromium…") is detail here: shown with --verbose.
private struct DetailReporter: ShareReporter {
    func progress(_ message: String) { Output.detail(message) }
}

/// `articlePage` stops before a save; a save reaching this port is a bug in the flow.
private struct NoSave: SaveClient {
    func save(_ article: ExtractedArticle) throws -> URL {
        throw SaveError.malformedResponse("piper extract does not save")
    }
}

/// `articlePage` turns the clipboard off; nothing is ever copied.
private struct NoClipboard: Clipboard {
    func copy(_ text: String) throws -> String {
        throw ClipboardError("piper extract does not copy")
    }
}
