import Foundation
import HTML
import PiperCore
import Readability
import Extraction

/// The `ContentExtractor` port on Extraction's `ArticlePipeline` (the same pipeline `piper
/// extract` runs): a loaded page's bytes, transport charset and final URL → `{title, content}`
/// and its metadata, or `ExtractionError.notAnArticle` when the pipeline refuses the page.
public struct ReadabilityExtractor: ContentExtractor {
    /// The pipeline every share extracts through (piper mode, 140-character minimum by default).
    public var pipeline: ArticlePipeline

    /// The parse shared with the media search (`PageDocument`); nil: each page is parsed here.
    public var document: PageDocument?

    /// An extractor on `pipeline`.
    public init(pipeline: ArticlePipeline = ArticlePipeline(), document: PageDocument? = nil) {
        self.pipeline = pipeline
        self.document = document
    }

    /// An extractor on a pipeline built from these settings.
    public init(options: ReadabilityOptions, minimumTextLength: Int = ArticlePipeline.defaultMinimumTextLength,
                mode: ExtractionMode = .piper) {
        pipeline = ArticlePipeline(mode: mode, options: options, minimumTextLength: minimumTextLength)
    }

    /// Checks and extracts `page` now, ahead of the share's readerable and extract steps, which
    /// then return these answers: the media search calls it while it waits for the page's feeds
    /// (the network wait and the extraction's CPU time then overlap). Without a shared
    /// `document` it does nothing.
    public func prepare(_ page: LoadedPage) {
        guard let document else { return }
        let pipeline = pipeline
        let url = page.finalURL.absoluteString
        document.prepare(page, check: { isProbablyReaderable($0) }, extract: { parsed in
            Result { () throws(ArticleRejection) in try pipeline.extract(from: parsed, url: url) }
        })
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        let article: Article
        do {
            let url = page.finalURL.absoluteString
            if let prepared = document?.takePrepared(page) {
                article = try prepared.get()
            } else if let document {
                article = try pipeline.extract(from: document.take(page), url: url)
            } else {
                article = try pipeline.run([UInt8](page.body), transportEncoding: page.charset, url: url)
            }
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

    public func isReaderable(_ page: LoadedPage) -> Bool {
        // Readability's check only reads the tree: the shared parse stays for the extraction.
        if let document { return document.preparedReaderable(page) ?? isProbablyReaderable(document.read(page)) }
        return ArticlePipeline.isReaderable([UInt8](page.body), transportEncoding: page.charset, url: page.finalURL.absoluteString)
    }
}
