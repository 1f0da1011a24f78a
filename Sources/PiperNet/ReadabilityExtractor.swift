import Foundation
import HTML
import PiperCore
import Readability
import Extraction

/// The `ContentExtractor` port on our HTML parser and Readability: bytes → DOM (with the
/// transport charset; BOM, meta prescan and detection are the parser's job) → `{title, content}`,
/// in the piper extraction mode unless told otherwise.
public struct ReadabilityExtractor: ContentExtractor {
    public var options: ReadabilityOptions
    /// The extraction mode (the default: piper).
    public var mode: ExtractionMode
    /// Readability returns its best attempt even for a page with one line of text (a login
    /// wall, an error page). Fewer characters of article text than this is not an article.
    public var minimumTextLength: Int

    public init(options: ReadabilityOptions = .init(), minimumTextLength: Int = 140, mode: ExtractionMode = .piper) {
        self.options = options
        self.mode = mode
        self.minimumTextLength = minimumTextLength
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        let document = Self.parse(page)
        let article: Article?
        do {
            article = try Extraction.extract(document, url: page.finalURL.absoluteString, mode: mode, options: options)
        } catch {
            throw ExtractionError.engineFailed(page.finalURL, "\(error)")
        }
        guard let article, article.textContent.trimmingCharacters(in: .whitespacesAndNewlines).count >= minimumTextLength else {
            throw ExtractionError.notAnArticle(page.finalURL)
        }
        return ExtractedArticle(title: article.title ?? "", content: article.content,
                                sourceURL: page.finalURL.absoluteString, byline: article.byline,
                                siteName: article.siteName, publishedTime: article.publishedTime,
                                lang: article.lang, dir: article.dir, excerpt: article.excerpt)
            .withTitleFallback(for: page.finalURL)
    }

    public func isReaderable(_ page: LoadedPage) -> Bool {
        isProbablyReaderable(Self.parse(page))
    }

    static func parse(_ page: LoadedPage) -> Document {
        // No charset from the transport (or Chromium's "utf-8" for the string it returns):
        // the parser sniffs, with the page's top-level domain as a hint for detection.
        Document.parse(bytes: [UInt8](page.body), options: ParseOptions(
            transportEncoding: page.charset, topLevelDomain: ParseOptions.topLevelDomain(ofHost: page.finalURL.host)))
    }
}
