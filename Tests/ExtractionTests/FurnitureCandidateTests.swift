@testable import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// A short post beside a longer author box: when Readability takes the author's box, a box of
/// the page's furniture, the piper mode counts that as nothing found, so the post's own
/// container stands in (though it is not three times the box's size).
@Suite(.ownThread) struct FurnitureCandidateTests {
    static let html = "<html><head><title>Live from the camp</title></head><body><div id=page>"
        + "<header><nav><a href=/>Home</a> <a href=/episodes>Episodes</a></nav></header>"
        + "<div id=main><article class=\"post type-post\"><h1>Live from the camp</h1><div class=entry-content>"
        + "<p>At this year's camp we asked six guests about their day, and what they will try next year.</p>"
        + "<p>They told us what they learned, in a few words each, between two sessions.</p>"
        + "<p>Listen to the episode below, or read the notes.</p></div></article>"
        + "<div id=author-info><div id=author-description><h2>About the host</h2><p>The host studied electrical engineering, "
        + "with a focus on digital communications, and has run a consultancy for learning organisations, knowledge management "
        + "and new ways of work for more than twenty years; he writes about lifelong learning.</p><p>Before that, he taught, "
        + "wrote handbooks on sharing knowledge in companies, and recorded more than a hundred episodes of this show.</p></div></div>"
        + "</div><footer><a href=/imprint>Imprint</a></footer></div></body></html>"

    static func choice(names: String) throws -> String {
        let document = Document.parse(Self.html.replacingOccurrences(of: "author-", with: names),
                                      options: ArticlePipeline.parseOptions())
        let post = try #require(document.node.querySelector("article"))
        let box = try #require(document.node.querySelector("#\(names)info"))
        let alternative = Alternative(kind: .semantic, source: post, document: document, tuning: .standard)
        _ = alternative.copy
        let candidate = document.createElement("div")
        _ = candidate.appendChild(box)
        let chosen = try #require(Extraction.choose(readability: candidate, alternatives: [alternative], title: "Live from the camp", tuning: .standard))
        return chosen.root.textContent
    }

    @Test func anAuthorBoxIsNoArticle() throws {
        let text = try Self.choice(names: "author-")
        #expect(text.contains("At this year's camp"))
        #expect(!text.contains("The host studied"))
    }

    @Test func aBoxNamedOtherwiseStays() throws {
        let text = try Self.choice(names: "host-")
        #expect(text.contains("The host studied"), "a short candidate keeps a container under three times its size out")
    }

    /// A page whose content a script renders (a shop's product page saved before it ran):
    /// Readability takes the footer's help links and newsletter box, the only text there is.
    /// A footer is never the article, so the piper mode finds none.
    static let shell = "<html><head><title>Mechanical keyboard, wireless</title></head><body>"
        + "<header><nav><a href=/>Home</a> <a href=/deals>Deals</a></nav></header><div id=root><div class=loading>Loading</div></div>"
        + "<footer><div class=help><h5>Help</h5><p>Help Center, Disputes and Reports, Return and refund policy, Report an "
        + "infringement, Transparency Center, Recalls, Return Policy</p><h5>Other languages</h5><p>Russian, Portuguese, "
        + "Spanish, French, German, Italian, Dutch, Turkish, Japanese, Korean, Thai, Arabic, Hebrew, Polish</p><h5>Subscribe</h5>"
        + "<p>By opting in, you agree to subscribe to our newsletter and stay updated on news and offers. You can unsubscribe "
        + "at any time.</p></div></footer></body></html>"

    @Test func aFooterIsNoArticle() throws {
        let readability = try extractedText(Self.shell, url: "https://shop.example/item/1", mode: .readability)
        #expect(readability?.contains("Help Center") == true, "Readability takes the footer")
        #expect(try extractedText(Self.shell, url: "https://shop.example/item/1") == nil)
    }

    @Test func aShortArticleBesideAFooterStays() throws {
        let html = Self.shell.replacingOccurrences(of: "<div class=loading>Loading</div>", with: "<article><h1>Mechanical keyboard</h1>"
            + "<p>A wireless keyboard in an aluminium case, with keys you can swap without soldering and three ways to connect.</p>"
            + "<p>It runs for two weeks on one charge, and the lights can be switched off to make that a month.</p>"
            + "<p>The box holds the keyboard, a cable, a key puller and a card with the shortcuts printed on it.</p></article>")
        let text = try #require(try extractedText(html, url: "https://shop.example/item/1"))
        #expect(text.contains("three ways to connect"), "a candidate that holds the article and the footer is no footer")
    }
}
