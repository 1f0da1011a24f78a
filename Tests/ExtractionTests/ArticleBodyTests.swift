import Extraction
import Foundation
import PiperTestSupport
import Testing

/// A page that renders its article from a script: the markup holds a teaser and a sign-in
/// box, the JSON-LD `articleBody` the whole text, which the piper mode then takes.
@Suite(.ownThread) struct ArticleBodyTests {
    static let paragraphs = (1...8).map {
        "Paragraph \($0) of the column argues, in several plain sentences, that the president won her second term by patience "
            + "and by reading her opponents well, not by any single speech."
    }

    static func page(articleBody: String, markup: String) -> String {
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: [
            "@context": "https://schema.org", "@type": "NewsArticle", "headline": "A political playbook", "articleBody": articleBody,
        ]), as: UTF8.self)
        return "<html><head><title>A political playbook</title><script type=\"application/ld+json\">\(json)</script></head>"
            + "<body><header><nav><a href=/>Home</a> <a href=/opinion>Opinion</a></nav></header>\(markup)"
            + "<footer><a href=/terms>Terms</a> <a href=/privacy>Privacy</a></footer></body></html>"
    }

    static let teaser = "<div class=article><h1>A political playbook</h1><p>The president's re-election was no easy feat, and "
        + "her party's defeat a year before had seemed to end her career.</p><div class=login><p>Sign in to read the whole column: "
        + "register with your e-mail address to continue reading.</p></div></div>"

    @Test func theDeclaredTextStandsInForATeaser() throws {
        let html = Self.page(articleBody: Self.paragraphs.joined(separator: "\n"), markup: Self.teaser)
        let text = try #require(try SecondStrategyTests.extract(html))
        for n in 1...8 { #expect(text.contains("Paragraph \(n) of the column"), "paragraph \(n) missing") }
        #expect(!text.contains("Sign in to read"))
    }

    @Test func aTextHoldingTheDeclaredBodyStays() throws {
        let markup = "<article><h1>A political playbook</h1>" + Self.paragraphs.map { "<p>\($0)</p>" }.joined()
            + "<p>A last word from the editors, which the declared text leaves out.</p></article>"
        let html = Self.page(articleBody: Self.paragraphs.joined(separator: "\n"), markup: markup)
        let text = try #require(try SecondStrategyTests.extract(html))
        #expect(text.contains("A last word from the editors"))
    }
}
