import Foundation

extension ShareDriver {
    /// The page `piper share` would extract an article from, loaded by the same flow: cookies,
    /// X links (which need them and go to the browser), `options.browser`, the readerable check
    /// with its Chromium second opinion and plain-HTTP fallback. The flow runs as an article
    /// share (`route` .article) and stops where it would extract; nothing is saved or copied.
    /// A post is read as the share reads it (`readPost`: its page, or its network's API).
    /// Throws the flow's failure, or `ShareFailure.notAPage` when the link is routed to media.
    public func articlePage(for url: URL, options: ShareFlow.Options) throws -> ArticleSource {
        var options = options
        options.route = .article
        options.copyToClipboard = false
        options.browserAvailable = options.browserAvailable && ports.browserLoader != nil
        var flow = ShareFlow(target: .link(url), options: options)
        var pending = flow.start()
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .extract(let parsed):
                return .page(parsed.page)
            case .readPost(let post):
                return .post(try ports.extractor.readPost(post))
            case .finish(let result):
                if case .failure(let error) = result { throw error }
                throw ShareFailure.notAPage(url.absoluteString)
            case .enqueueMedia, .enqueueFile, .enqueuePlaylist:
                throw ShareFailure.notAPage(url.absoluteString)
            default:
                if let event = perform(action) { pending.append(contentsOf: flow.handle(event)) }
            }
        }
        throw ShareFailure.noURL  // unreachable: the flow ends in .extract or .finish
    }
}

/// What `articlePage` found: a page to extract an article from, or a post already read.
public enum ArticleSource: Sendable, Equatable {
    case page(LoadedPage)
    case post(ExtractedArticle)
}
