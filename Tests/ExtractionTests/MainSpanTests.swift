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

    /// Teaser cards after an article's text, each a link around a headline and a blurb: the box
    /// beside the span after it is mostly links and goes, though its blurbs are sentences. The
    /// same list between the article's paragraphs is part of the text and stays.
    static func withTeasers(after paragraphs: Int) throws -> String {
        let teasers = (1...6).map {
            "<li><a href=\"/story\($0)\"><div class=title>Story \($0): another report's headline</div>"
                + "<p>Town (dpa) - The blurb of another story, two sentences long. It says what happened elsewhere.</p></a></li>"
        }.joined()
        let list = "<ul class=cards><li class=title><span>More stories</span></li>\(teasers)</ul>"
        let text = (1...6).map {
            "<p>Paragraph \($0) of the report describes, in several plain sentences, how the river authority "
                + "measured the spring flood, which villages it reached, and what the engineers plan to change.</p>"
                + ($0 == paragraphs ? list : "")
        }.joined()
        let html = "<html><head><title>Flood report</title></head><body>"
            + "<div id=app><article><main><h1>Flood report</h1><div class=text>\(text)</div></main></article></div></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try #require(try Extraction.extract(document, url: "https://example.org/flood", mode: .piper)).textContent
    }

    @Test func teaserCardsAfterTheTextGo() throws {
        let text = try Self.withTeasers(after: 6)
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("The blurb of another story"))
        #expect(!text.contains("More stories"))
    }

    @Test func teaserCardsInsideTheTextStay() throws {
        let text = try Self.withTeasers(after: 3)
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(text.contains("The blurb of another story"))
    }

    /// A grid of pictured teaser cards after the text of the chosen container, each a link
    /// around a picture, a headline and a blurb, goes (whatever the page calls itself), when
    /// its cards are too few links to go as a link list. Cards showing a price are a shop's
    /// products, not teasers.
    static func cards(price: String) -> String {
        (1...4).map {
            "<div class=card><a href=\"/more\($0)\"><img src=\"/p\($0).jpg\"><h3>Other report \($0): how the dam at the old mill held</h3></a>"
                + "<p>Blurb\(price): <b>the dam</b>, <b>the mill</b>, the flood on the river.</p></div>"
        }.joined()
    }

    /// The text of an article of the six paragraphs and `after` them, trimmed as a chosen
    /// container is.
    static func trimmed(after: String, product: Bool = false) throws -> String {
        let html = "<html><body><article>\(Self.paragraphs)\(after)</article></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let container = try #require(document.node.querySelector("article"))
        Classifier.trimTrailingTeasers(container, product: product, .standard)
        return container.textContent
    }

    @Test func aGridOfPicturedTeasersAfterTheTextGoes() throws {
        let text = try Self.trimmed(after: "<div class=grid>\(Self.cards(price: ""))</div>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("Other report"))
    }

    @Test func productCardsWithPricesAreNoTeaserGrid() throws {
        for (price, isGrid) in [("", true), (" for €25", false)] {
            let html = "<html><body><article>\(Self.paragraphs)<div class=grid>\(Self.cards(price: price))</div></article></body></html>"
            let document = Document.parse(html, options: ArticlePipeline.parseOptions())
            let container = try #require(document.node.querySelector("article"))
            let grid = try #require(document.node.querySelector(".grid"))
            let classifier = Classifier(root: container, normalizedTitle: nil, tuning: .standard)
            #expect(classifier.isTeaserGrid(grid, length: classifier.table.length(grid)) == isGrid, "price \(price)")
        }
    }

    /// An aside after the text that cleaning kept (a short box about the series) goes once the
    /// container is chosen.
    @Test func anAsideAfterTheTextGoes() throws {
        let text = try Self.trimmed(after: "<aside><h3>About this series</h3><p>Every week the desk follows one river to the sea.</p></aside>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("Every week the desk"))
    }

    /// "See also: <a>headline</a>" between the paragraphs goes, as a quote or a subheading as
    /// in a paragraph; a subheading that holds a link in its words stays.
    @Test func aSeeAlsoLineBetweenParagraphsGoes() throws {
        let promos = "<blockquote><b>SEE ALSO: </b><a href=/a>How the old dam was built, and why it still holds</a></blockquote>"
            + "<h3>READ: <a href=/b>The mill that floods every spring</a></h3>"
            + "<h3>What <a href=/c>the engineers</a> plan to change next year</h3>"
        let html = "<html><head><title>Flood report</title></head><body><article><div class=story>"
            + Self.paragraphs.replacingOccurrences(of: "</p><p>Paragraph 4", with: "</p>\(promos)<p>Paragraph 4")
            + "</div></article></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let text = try #require(try Extraction.extract(document, url: "https://example.org/flood", mode: .piper)).textContent
        #expect(text.contains("Paragraph 4 of the report"))
        #expect(!text.contains("How the old dam was built"))
        #expect(!text.contains("The mill that floods"))
        #expect(text.contains("What the engineers plan to change next year"))
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
        Classifier.trimTrailingTeasers(container, .standard)
        let text = container.textContent
        #expect(text.components(separatedBy: "second channel in May").count == 2)
        #expect(text.components(separatedBy: "Warm up for ten minutes").count == 4)
    }

    /// On a product page, cards showing a price are the shop's other products, and go; on
    /// other pages they stay.
    @Test func productCardsWithPricesOnAProductPageGo() throws {
        for product in [true, false] {
            let text = try Self.trimmed(after: "<div class=grid>\(Self.cards(price: " for €25"))</div>", product: product)
            #expect(text.contains("Paragraph 6 of the report"))
            #expect(text.contains("Blurb for €25") == !product, "product page: \(product)")
        }
    }
}
