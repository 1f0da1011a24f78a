import Foundation
import PiperCore
import Readability
import PiperTestSupport
import Testing
@testable import PiperNet

/// The Piper spec's extractor table, on the real parser and Readability.
@Suite(.ownThread) struct ExtractorTests {
    func corpusPage(_ name: String) throws -> LoadedPage {
        let file = packageRoot().appendingPathComponent("../shared/corpus/readability/\(name)/source.html").standardizedFileURL
        return LoadedPage(requestedURL: URL(string: "http://fakehost/test/page.html")!, contentType: "text/html; charset=utf-8",
                          body: try Data(contentsOf: file))
    }

    @Test func titleAndContent() throws {
        let article = try ReadabilityExtractor().extract(try corpusPage("001"))
        #expect(!article.title.isEmpty)
        #expect(article.content.contains("<p>"))
        #expect(article.content.count > 500)
    }

    @Test func emptyTitleFallsBack() throws {
        let words = String(repeating: "This sentence is part of a long article body, with commas, and more words. ", count: 30)
        let html = "<html><head></head><body><article><p>\(words)</p><p>\(words)</p></article></body></html>"
        let page = LoadedPage(requestedURL: URL(string: "https://example.com/notes/untitled-post")!, body: Data(html.utf8))
        let article = try ReadabilityExtractor().extract(page)
        #expect(article.title == "example.com — untitled-post")
        #expect(article.content.contains("long article body"))
    }

    @Test func notAnArticleIsAnExtractionError() throws {
        let page = LoadedPage(requestedURL: URL(string: "https://example.com/login")!,
                              body: Data("<html><body><form><input name=u><button>Log in</button></form></body></html>".utf8))
        #expect(throws: ExtractionError.notAnArticle(page.finalURL)) { try ReadabilityExtractor().extract(page) }
        #expect(!ReadabilityExtractor().isReaderable(page))
    }

    @Test func engineErrorIsAnErrorNotACrash() throws {
        var options = ReadabilityOptions()
        options.maxElemsToParse = 5
        let error = try #require(throws: ExtractionError.self) { try ReadabilityExtractor(options: options).extract(try corpusPage("002")) }
        guard case .engineFailed = error else {
            Issue.record("expected an engine failure, got \(error)")
            return
        }
        #expect(error.category == .badData)
    }
}
