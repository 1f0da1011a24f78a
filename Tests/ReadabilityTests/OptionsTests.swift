import Foundation
import HTML
@testable import Readability
import PiperTestSupport
import Testing

/// Behaviour of each option, and the result's shape, on small hand-made pages.
@Suite(.ownThread) struct OptionsTests {
    static let paragraph = "Readability keeps the paragraphs that read like an article, with commas, sentences, and enough text to score well. "

    static func page(body: String, head: String = "<title>A Fine Test Article About Things</title>") -> String {
        "<!DOCTYPE html><html lang=\"en\"><head>\(head)</head><body>\(body)</body></html>"
    }

    static var article: String {
        page(body: "<div class=\"content keep\"><p class=\"intro lead\">\(String(repeating: paragraph, count: 4))</p>"
            + "<p>\(String(repeating: paragraph, count: 4))</p><img src=\"pics/a.png\"><a href=\"/about\">About us</a></div>")
    }

    static func parse(_ html: String, _ options: ReadabilityOptions = .init()) throws -> Article? {
        try Readability.parse(Document.parse(html, options: ParseOptions(scripting: false)),
                              url: "http://example.com/dir/page.html", options: options)
    }

    @Test func resultHasWrapperTitleAndLength() throws {
        let article = try #require(try Self.parse(Self.article))
        #expect(article.content.hasPrefix("<div id=\"readability-page-1\" class=\"page\">"))
        #expect(article.title == "A Fine Test Article About Things")
        #expect(article.lang == "en")
        #expect(article.length == article.textContent.utf16.count)
        #expect(article.excerpt?.hasPrefix("Readability keeps") == true)
    }

    @Test func maxElemsToParseThrows() throws {
        #expect(throws: ReadabilityError.self) { try Self.parse(Self.article, ReadabilityOptions(maxElemsToParse: 3)) }
        #expect(try Self.parse(Self.article, ReadabilityOptions(maxElemsToParse: 10_000)) != nil)
        let error = ReadabilityError.tooManyElements(12)
        #expect(error.description == "Aborting parsing document; 12 elements found")
    }

    @Test func classesStrippedUnlessKeptOrPreserved() throws {
        let plain = try #require(try Self.parse(Self.article))
        #expect(!plain.content.contains("intro"))
        #expect(plain.content.contains("class=\"page\""))
        let kept = try #require(try Self.parse(Self.article, ReadabilityOptions(keepClasses: true)))
        #expect(kept.content.contains("intro lead"))
        let preserved = try #require(try Self.parse(Self.article, ReadabilityOptions(classesToPreserve: ["lead"])))
        #expect(preserved.content.contains("class=\"lead\""))
        #expect(!preserved.content.contains("intro"))
    }

    @Test func relativeURLsBecomeAbsolute() throws {
        let article = try #require(try Self.parse(Self.article))
        #expect(article.content.contains("src=\"http://example.com/dir/pics/a.png\""))
        #expect(article.content.contains("href=\"http://example.com/about\""))
        let withBase = Self.article.replacingOccurrences(of: "<title>", with: "<base href=\"https://cdn.test/x/\"><title>")
        let based = try #require(try Self.parse(withBase))
        #expect(based.content.contains("src=\"https://cdn.test/x/pics/a.png\""))
    }

    @Test func charThresholdDecidesRetriesButKeepsBestAttempt() throws {
        let short = Self.page(body: "<div><p>\(Self.paragraph)</p></div>")
        // Below the default threshold every retry falls short; the longest attempt is kept.
        let article = try #require(try Self.parse(short))
        #expect(article.textContent.contains("Readability keeps"))
        #expect(try Self.parse(Self.page(body: "")) == nil)
    }

    @Test func jsonLDAndItsSwitch() throws {
        let ld = """
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
            "headline":"From JSON-LD","author":[{"name":"Ann"},{"name":"Bob"}],"publisher":{"name":"LD Site"},
            "datePublished":"2024-01-02"}</script><title>Another Title Entirely Here</title>
            """
        let html = Self.page(body: "<div>" + String(repeating: "<p>\(Self.paragraph)</p>", count: 6) + "</div>", head: ld)
        let on = try #require(try Self.parse(html))
        #expect(on.title == "From JSON-LD")
        #expect(on.byline == "Ann, Bob")
        #expect(on.siteName == "LD Site")
        #expect(on.publishedTime == "2024-01-02")
        let off = try #require(try Self.parse(html, ReadabilityOptions(disableJSONLD: true)))
        #expect(off.title == "Another Title Entirely Here")
        #expect(off.byline == nil)
    }

    @Test func allowedVideoRegexAndSerializer() throws {
        let body = "<div>" + String(repeating: "<p>\(Self.paragraph)</p>", count: 6)
            + "<iframe src=\"https://www.youtube.com/embed/x\"></iframe><iframe src=\"https://video.example/v\"></iframe></div>"
        let html = Self.page(body: body)
        let standard = try #require(try Self.parse(html))
        #expect(standard.content.contains("youtube.com"))
        #expect(!standard.content.contains("video.example"))
        let custom = try #require(try Self.parse(html, ReadabilityOptions(allowedVideoRegex: { $0.contains("video.example") })))
        #expect(custom.content.contains("video.example"))
        #expect(!custom.content.contains("youtube.com"))
        let serialized = try #require(try Self.parse(html, ReadabilityOptions(serializer: { _ in "custom" })))
        #expect(serialized.content == "custom")
    }

    @Test func readerableOptions() throws {
        let doc = Document.parse(Self.article)
        #expect(isProbablyReaderable(doc))
        #expect(!isProbablyReaderable(doc, options: ReaderableOptions(minContentLength: 10_000)))
        #expect(!isProbablyReaderable(doc, options: ReaderableOptions(minScore: 1_000)))
        #expect(!isProbablyReaderable(doc, options: ReaderableOptions(visibilityChecker: { _ in false })))
        let hidden = Document.parse(Self.page(body: "<p style=\"display: none\">\(String(repeating: Self.paragraph, count: 8))</p>"))
        #expect(!isProbablyReaderable(hidden))
    }

    /// A short page (under `charThreshold`) whose text is partly in a box named as a sidebar:
    /// the first pass strips it as an unlikely candidate, the later passes keep it, and the
    /// longest attempt wins. `passes` stops the ladder early.
    @Test func passesLimitTheRetries() throws {
        let html = Self.page(body: "<div><p>A short note, with a comma, and a few words of text.</p>"
            + "<div class=\"sidebar\"><p>Words that only the looser passes keep, with commas, and more words after them.</p></div></div>")
        let all = try #require(try Self.parse(html))
        #expect(all.textContent.contains("looser passes"))
        var options = ReadabilityOptions()
        options.passes = 1
        let first = try #require(try Self.parse(html, options))
        #expect(first.textContent.contains("A short note"))
        #expect(!first.textContent.contains("looser passes"))
    }
}
