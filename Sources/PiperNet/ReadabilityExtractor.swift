import Foundation
import HTML
import PiperCore
import Readability
import Extraction

/// The `ContentExtractor` port on Extraction's `ArticlePipeline` (the same pipeline `piper
/// extract` runs): a loaded page's bytes, transport charset and final URL → `{title, content}`
/// and its metadata, or `ExtractionError.notAnArticle` when the pipeline refuses the page. In a
/// share the page is parsed once (`parse`, a `DocumentTree`) and every step reads that parse.
public struct ReadabilityExtractor: ContentExtractor {
    /// The pipeline every share extracts through (piper mode, 140-character minimum by default).
    public var pipeline: ArticlePipeline

    /// An extractor on `pipeline`.
    public init(pipeline: ArticlePipeline = ArticlePipeline()) {
        self.pipeline = pipeline
    }

    /// An extractor on a pipeline built from these settings.
    public init(options: ReadabilityOptions, minimumTextLength: Int = ArticlePipeline.defaultMinimumTextLength,
                mode: ExtractionMode = .piper) {
        pipeline = ArticlePipeline(mode: mode, options: options, minimumTextLength: minimumTextLength)
    }

    public func parse(_ page: LoadedPage) -> ParsedPage {
        ParsedPage(page: page, tree: DocumentTree(page))
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        try extract(page, from: DocumentTree.parse(page))
    }

    public func extract(_ parsed: ParsedPage) throws -> ExtractedArticle {
        try extract(parsed.page, from: DocumentTree.taking(parsed))
    }

    public func isReaderable(_ page: LoadedPage) -> Bool {
        ArticlePipeline.isReaderable([UInt8](page.body), transportEncoding: page.charset, url: page.finalURL.absoluteString)
    }

    /// Readability's check only reads the tree: the parse stays for the extraction.
    public func isReaderable(_ parsed: ParsedPage) -> Bool {
        isProbablyReaderable(DocumentTree.reading(parsed))
    }

    private func extract(_ page: LoadedPage, from document: Document) throws -> ExtractedArticle {
        let article: Article
        do {
            article = try pipeline.extract(from: document, url: page.finalURL.absoluteString)
        } catch .engineFailed(let why) {
            throw ExtractionError.engineFailed(page.finalURL, why)
        } catch {
            throw ExtractionError.notAnArticle(page.finalURL)
        }
        return ExtractedArticle(title: article.title ?? "", content: article.content,
                                sourceURL: page.finalURL.absoluteString, byline: article.byline,
                                siteName: article.siteName, publishedTime: article.publishedTime,
                                lang: article.lang, dir: article.dir, excerpt: article.excerpt)
            .withTitleFallback(for: page.finalURL)
    }
}
