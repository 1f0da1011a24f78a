import Foundation
import HTML
import Readability
import Testing

/// Hostile input must neither crash nor hang.
@Suite struct BadInputTests {
    static func run(_ html: String) throws -> Article? {
        let doc = Document.parse(html, options: ParseOptions(scripting: false))
        _ = isProbablyReaderable(doc)
        return try Readability.parse(doc, url: "http://fakehost/test/page.html")
    }

    @Test func malformedMarkup() throws {
        let html = "<html><p><div></p><table><tr><td><b><i></b></i><font><br><br><br>text, text, text</td>"
            + "<a href=\"javascript:x()\"><a href=//x>unclosed <select><option><script>" + String(repeating: "<p>words, more words. ", count: 50)
        _ = try Self.run(html)
    }

    @Test func deeplyNestedElements() throws {
        let depth = 100_000
        for tag in ["div", "ins", "span"] {
            let html = String(repeating: "<\(tag)>", count: depth) + "Deep text, with commas, that goes on for a while." + String(repeating: "</\(tag)>", count: depth)
            _ = try Self.run(html)
        }
    }

    @Test func binaryGarbage() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let doc = Document.parse(bytes: bytes, options: ParseOptions(scripting: false))
            _ = isProbablyReaderable(doc)
            _ = try Readability.parse(doc, url: "http://fakehost/test/page.html")
        }
    }

    @Test func emptyAndTextOnly() throws {
        #expect(try Self.run("") == nil)
        #expect(try Self.run("   ") == nil)
        let text = try Self.run(String(repeating: "Just text, no markup at all. ", count: 40))
        #expect(text?.textContent.contains("Just text") == true)
    }
}
