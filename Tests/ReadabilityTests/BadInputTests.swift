import Foundation
import PiperTestSupport
import HTML
import Readability
import Testing

/// Hostile input must neither crash nor hang.
@Suite(.ownThread) struct BadInputTests {
    static func run(_ html: String) throws -> Article? {
        let doc = Document.parse(html, options: ParseOptions(scripting: false))
        _ = isProbablyReaderable(doc)
        return try Readability.parse(doc, url: "http://fakehost/test/page.html")
    }

    @Test func malformedMarkup() throws {
        let html = "<html><p><div></p><table><tr><td><b><i></b></i><font><br><br><br>text, text, text</td>"
            + "<a href=\"javascript:x()\"><a href=//x>unclosed <select><option><script>" + String(repeating: "<p>words, more words. ", count: 50)
        let article = try #require(try Self.run(html), "the table cell's text is an article")
        #expect(article.textContent.contains("text, text, text"))
        // The unclosed <script> holds the rest of the input as script text: it never reaches the article.
        #expect(!article.textContent.contains("words, more words"))
        #expect(!article.content.contains("javascript:"), "javascript: links are dropped")
    }

    /// Built through the DOM API, so the check is about Readability rather than the parser.
    @Test func deeplyNestedElementsAreRefusedQuickly() throws {
        for tag in ["div", "ins", "span"] {
            let doc = Document.parse("<html><head><title>Deep</title></head><body></body></html>")
            let body = try #require(doc.body)
            // Built from the inside out: each insertion is then O(1).
            var top = doc.createTextNode("Deep text, with commas, that goes on for a while.")
            for _ in 0..<100_000 {
                let element = doc.createElement(tag)
                element.appendChild(top)
                top = element
            }
            body.appendChild(top)
            #expect(isProbablyReaderable(doc) == false)
            #expect(throws: ReadabilityError.tooDeep(100_002)) {
                try Readability.parse(doc, url: "http://fakehost/test/page.html")
            }
        }
    }

    @Test func nestingJustUnderTheLimitStillParses() throws {
        let depth = Readability.maxNestingDepth - 10
        let html = String(repeating: "<div>", count: depth) + String(repeating: "Deep text, with commas, that goes on. ", count: 20)
            + String(repeating: "</div>", count: depth)
        let article = try #require(try Self.run(html))
        #expect(article.textContent.contains("Deep text"))
    }

    @Test func binaryGarbage() throws {
        var generator = SeededRandom(seed: 0xBAD_1A9E)
        for round in 0..<5 {
            let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let doc = Document.parse(bytes: bytes, options: ParseOptions(scripting: false))
            #expect(doc.body != nil, "round \(round): the parser always builds a body")
            #expect(!isProbablyReaderable(doc), "round \(round): noise is not an article")
            if let article = try Readability.parse(doc, url: "http://fakehost/test/page.html") {
                #expect(article.length == article.textContent.utf16.count, "round \(round)")
            }
        }
    }

    @Test func emptyAndTextOnly() throws {
        #expect(try Self.run("") == nil)
        #expect(try Self.run("   ") == nil)
        let text = try Self.run(String(repeating: "Just text, no markup at all. ", count: 40))
        #expect(text?.textContent.contains("Just text") == true)
    }
}
