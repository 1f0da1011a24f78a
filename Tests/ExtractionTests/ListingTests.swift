import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// A shop's grid of products: the cards are the page's content, also when they are named for
/// the grid column they sit in (utility classes such as `col-span-1`).
@Suite(.ownThread) struct ListingTests {
    static func card(_ n: Int) -> String {
        "<div class=\"col-span-1 mb-10 flex flex-col\"><a href=/p/\(n)>Walnut desk shelf model \(n)</a><div>$ \(n + 40) +</div></div>"
    }

    static func page(cards: String) -> String {
        "<html><head><title>Desk accessories</title></head><body><header><nav><a href=/>Home</a></nav></header>"
            + "<div class=intro><h1>Desk accessories</h1><p>Choose from hundreds of accessories designed to complement your "
            + "workspace and help you work better, with free shipping on every order over fifty dollars this spring.</p></div>"
            + "<div class=\"col-span-full grid grid-cols-4 gap-8\">\(cards)</div>"
            + "<footer><a href=/terms>Terms</a></footer></body></html>"
    }

    static func extract(_ html: String) throws -> String {
        try extractedText(html, url: "https://example.org/accessories", mode: .piper) ?? ""
    }

    @Test func aGridOfProductCardsInColumnsIsTheContent() throws {
        let text = try Self.extract(Self.page(cards: (1...16).map(Self.card).joined()))
        for n in [1, 8, 16] { #expect(text.contains("Walnut desk shelf model \(n)"), "card \(n) missing") }
    }

    @Test func aListingKeepsItsHeadingAndIntroduction() throws {
        // The heading and the paragraph about the collection sit in a box of their own above
        // the grid, both inside the collection's column.
        let html = Self.page(cards: (1...16).map(Self.card).joined())
            .replacingOccurrences(of: "<div class=intro>", with: "<div class=collection><div class=intro>")
            .replacingOccurrences(of: "<footer>", with: "<div class=pages><a href=?page=2>Next page</a></div></div><footer>")
        let text = try Self.extract(html)
        #expect(text.contains("Choose from hundreds of accessories"))
        #expect(text.contains("Walnut desk shelf model 16"))
        #expect(!text.contains("Next page"), "what follows the cards is no introduction")
    }

    @Test func columnsOfProseAreNoListing() throws {
        // Columns of an article's sections, with no links: the page's layout, not a listing.
        let sections = (1...4).map {
            "<div class=\"col-span-1\"><p>Section \($0) of the essay explains, in plain sentences and without a single link, "
                + "how the typeface's narrow letters were widened for small screens over three long years of testing.</p></div>"
        }.joined()
        let html = "<html><head><title>An essay</title></head><body><article><h1>An essay</h1>"
            + "<p>The essay begins with a long paragraph of its own, which says what the sections after it will explain, "
            + "and why the work took as long as it did, from the first sketch to the last release of the font.</p>"
            + "<div class=\"grid grid-cols-2\">\(sections)</div></article></body></html>"
        let text = try Self.extract(html)
        #expect(text.contains("The essay begins"))
        #expect(text.contains("Section 4 of the essay"))
    }
}
