import Extraction
import Foundation
import HTML
import Readability
import PiperTestSupport
import Testing

/// The one article pipeline: its parse options, the noscript images they let Readability
/// unwrap, and the minimum-length policy.
@Suite(.ownThread) struct ArticlePipelineTests {
    static let paragraph = "<p>" + String(repeating: "This sentence belongs to a long article body, with commas, and more words. ", count: 12) + "</p>"

    static func page(body: String) -> [UInt8] {
        Array("<html><head><title>A fine article</title></head><body><article>\(body)</article></body></html>".utf8)
    }

    @Test func parsesWithScriptingOff() {
        #expect(ArticlePipeline.parseOptions().scripting == false)
        let options = ArticlePipeline.parseOptions(transportEncoding: "shift_jis", url: "https://example.jp/a")
        #expect(options.transportEncoding == "shift_jis")
        #expect(options.topLevelDomain == "jp")
    }

    @Test func unwrapsNoscriptImages() throws {
        let placeholder = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
        let body = Self.paragraph + "<p><img src=\"\(placeholder)\"><noscript><img src=\"https://example.com/real.jpg\"></noscript></p>"
            + Self.paragraph
        for mode in ExtractionMode.allCases {
            let article = try ArticlePipeline(mode: mode).run(Self.page(body: body), url: "https://example.com/a")
            #expect(article.content.contains("https://example.com/real.jpg"), "\(mode)")
            #expect(!article.content.contains("&lt;img"), "\(mode): the noscript stayed text")
        }
    }

    @Test func refusesShortTextUnlessTheMinimumIsZero() throws {
        let bytes = Self.page(body: "<p>Log in to read this story.</p>")
        #expect(throws: ArticleRejection.tooShort(length: 26, minimum: 140)) { try ArticlePipeline().run(bytes) }
        let anything = ArticlePipeline(mode: .readability, minimumTextLength: 0)
        #expect(try anything.run(bytes).textContent.contains("Log in"))
        #expect(try ArticlePipeline().run(Self.page(body: Self.paragraph + Self.paragraph)).length > 140)
    }

    @Test func engineFailuresAreTyped() {
        var options = ReadabilityOptions()
        options.maxElemsToParse = 3
        let pipeline = ArticlePipeline(options: options)
        #expect {
            try pipeline.run(Self.page(body: Self.paragraph + Self.paragraph))
        } throws: { error in
            if case .engineFailed = error as? ArticleRejection { return true }
            return false
        }
    }
}
