import Foundation
import PiperCore
import Posts

/// The `ContentExtractor` that knows posts: the share flow decides which links are posts
/// (`PostLinks`) and fetches their answers (X's page, or the network's API through the share's
/// own client); this reads them (`PostReader`: the post, its author's thread, its quote; never
/// others' replies; each network's failures with their own sentences, nothing saved). Every
/// other page goes to `articles`.
public struct PostAwareExtractor: ContentExtractor {
    public var articles: any ContentExtractor

    public init(articles: any ContentExtractor) {
        self.articles = articles
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle { try articles.extract(page) }
    public func isReaderable(_ page: LoadedPage) -> Bool { articles.isReaderable(page) }
    public func parse(_ page: LoadedPage) -> ParsedPage { articles.parse(page) }
    public func extract(_ parsed: ParsedPage) throws -> ExtractedArticle { try articles.extract(parsed) }
    public func isReaderable(_ parsed: ParsedPage) -> Bool { articles.isReaderable(parsed) }
    public func readPost(_ post: FetchedPost) throws -> ExtractedArticle { try PostReader.article(post) }
}
