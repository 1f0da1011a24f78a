@testable import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// The piper mode's main-text span: furniture before and after the article's paragraphs goes
/// even when it is prose, and what sits inside the text stays.
@Suite(.ownThread) struct MainSpanTests {
    static let paragraphs = (1...6).map {
        "<p>Paragraph \($0) of the report describes, in several plain sentences, how the river authority "
            + "measured the spring flood, which villages it reached, and what the engineers plan to change.</p>"
    }.joined()

    static func extract(_ body: String) throws -> String {
        let html = "<html><head><title>Flood report</title></head><body>\(body)</body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try #require(try Extraction.extract(document, url: "https://example.org/flood", mode: .piper)).textContent
    }

    @Test func anAuthorBoxAfterTheTextGoesEvenWhenItIsProse() throws {
        // Two children: Readability replaces a box holding a single paragraph with the paragraph.
        let bio = "<div class=author-box><h4>About the author</h4><p>Jane Roe has written about rivers, dams and the people who live beside "
            + "them for twenty years, and teaches journalism at the university in the valley town.</p></div>"
        let text = try Self.extract("<article><div class=story>\(Self.paragraphs)</div>\(bio)</article>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("Jane Roe has written"))
    }

    @Test func aDatelineInsideASentenceStays() throws {
        let first = "<p><span class=meta-place>KOBE –</span> A total of six thousand sandbags were stacked along the "
            + "embankment overnight, the authority said, before the water reached its highest mark.</p>"
        let text = try Self.extract("<article><div class=story>\(first)\(Self.paragraphs)</div></article>")
        #expect(text.contains("KOBE – A total of six thousand sandbags"))
    }

    @Test func aDateLineBeforeTheTextGoesAndAStandfirstInTheHeaderStays() throws {
        let header = "<header><h1>Flood report</h1><p class=lead>The spring flood was the highest in forty years, "
            + "and the authority now wants a second channel around the old town.</p><time>23.10.2018</time></header>"
        let text = try Self.extract("<article><div class=story>\(header)<div class=published>Updated 24.10.2018, 14:03</div>"
            + "\(Self.paragraphs)</div></article>")
        #expect(text.contains("The spring flood was the highest in forty years"))
        #expect(!text.contains("23.10.2018"))
        #expect(!text.contains("14:03"))
        #expect(text.contains("Paragraph 1 of the report"))
    }

    /// Teaser cards after an article's text (`og:type` article), each a link around a picture, a
    /// headline and a blurb: the box beside the span is mostly links and goes, though its
    /// blurbs are sentences. A page that does not call itself an article keeps such cards (a
    /// category page's intro above its cards looks the same).
    static func withTeasers(openGraphType: String) throws -> String {
        let teasers = (1...6).map {
            "<li><a href=\"/story\($0)\"><div class=title>Story \($0): another report's headline</div>"
                + "<p>Town (dpa) - The blurb of another story, two sentences long. It says what happened elsewhere.</p></a></li>"
        }.joined()
        let html = "<html><head><title>Flood report</title><meta property=\"og:type\" content=\"\(openGraphType)\"></head><body>"
            + "<div id=app><article><main><h1>Flood report</h1><div class=text>\(Self.paragraphs)</div>"
            + "<ul class=cards><li class=title><span>More stories</span></li>\(teasers)</ul></main></article></div></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try #require(try Extraction.extract(document, url: "https://example.org/flood", mode: .piper)).textContent
    }

    @Test func teaserCardsAfterAnArticleGo() throws {
        let text = try Self.withTeasers(openGraphType: "article")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("The blurb of another story"))
        #expect(!text.contains("More stories"))
    }

    @Test func teaserCardsOnAPageThatIsNoArticleStay() throws {
        let text = try Self.withTeasers(openGraphType: "website")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(text.contains("The blurb of another story"))
    }

    /// A grid of pictured teaser cards after the text of the chosen container, each a link
    /// around a picture, a headline and a blurb, goes (whatever the page calls itself). Cards
    /// showing a price are a shop's products, and stay.
    static func trimmedCards(price: String, product: Bool = false) throws -> String {
        let cards = (1...4).map {
            "<div class=card><a href=\"/more\($0)\"><img src=\"/p\($0).jpg\"><h3>Other report \($0)</h3>"
                + "<p>The blurb of another report\(price), in one sentence that tells what it is about.</p></a></div>"
        }.joined()
        let html = "<html><body><article>\(Self.paragraphs)<div class=grid>\(cards)</div></article></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let container = try #require(document.node.querySelector("article"))
        Classifier.trimTrailingTeasers(container, product: product)
        return container.textContent
    }

    @Test func aGridOfPicturedTeasersAfterTheTextGoes() throws {
        let text = try Self.trimmedCards(price: "")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("The blurb of another report"))
    }

    @Test func productCardsWithPricesStay() throws {
        let text = try Self.trimmedCards(price: " for €25")
        #expect(text.contains("The blurb of another report for €25"))
    }

    /// A box printed twice, once for each screen size, is kept once; list items that repeat
    /// (the same warm-up in each week of a plan) are data, and stay.
    @Test func aBoxRepeatedWordForWordIsKeptOnce() throws {
        let note = "The authority will open the second channel in May, and the old town's embankment will be raised by a metre."
        let steps = (1...3).map { _ in "<li>Warm up for ten minutes on the embankment path, then walk the rest of the route at an easy pace.</li>" }.joined()
        let html = "<html><body><article>\(Self.paragraphs)<div class=note-small>\(note)</div><div class=note-large>\(note)</div>"
            + "<ul>\(steps)</ul></article></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let container = try #require(document.node.querySelector("article"))
        Classifier.trimTrailingTeasers(container)
        let text = container.textContent
        #expect(text.components(separatedBy: "second channel in May").count == 2)
        #expect(text.components(separatedBy: "Warm up for ten minutes").count == 4)
    }

    /// On a product page, cards showing a price are the shop's other products, and go.
    @Test func productCardsWithPricesOnAProductPageGo() throws {
        let text = try Self.trimmedCards(price: " for €25", product: true)
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("The blurb of another report"))
    }
}
