import Foundation
import HTML
import PiperCore
import Readability

/// The `ContentExtractor` port on our HTML parser and Readability: bytes → DOM (with the
/// transport charset; BOM and meta prescan are the parser's job) → `{title, content}`.
public struct ReadabilityExtractor: ContentExtractor {
    public var options: ReadabilityOptions

    public init(options: ReadabilityOptions = .init()) {
        self.options = options
    }

    public func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        let document = Self.parse(page)
        let article: Article?
        do {
            article = try Readability(document, url: page.finalURL.absoluteString, options: options).parse()
        } catch {
            throw ExtractionError.engineFailed(page.finalURL, "\(error)")
        }
        guard let article, !article.textContent.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ExtractionError.notAnArticle(page.finalURL)
        }
        return ExtractedArticle(title: article.title ?? "", content: article.content).withTitleFallback(for: page.finalURL)
    }

    public func isReaderable(_ page: LoadedPage) -> Bool {
        isProbablyReaderable(Self.parse(page))
    }

    static func parse(_ page: LoadedPage) -> Document {
        Document.parse(bytes: [UInt8](page.body), options: ParseOptions(transportEncoding: page.charset))
    }
}
