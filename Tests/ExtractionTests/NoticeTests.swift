import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// The piper mode's rules for notices and captions around the article inside its own
/// container: a copyright notice after the text goes, a picture's legend stays out of the text.
@Suite(.ownThread) struct NoticeTests {
    static func extract(_ body: String) throws -> String {
        try MainSpanTests.extract(body)
    }

    /// The text of an article with `box` between two runs of the report's paragraphs.
    static func textAround(_ box: String) throws -> String {
        try extract("<article>\(MainSpanTests.paragraphs)\(box)\(MainSpanTests.paragraphs)</article>")
    }

    @Test func aCopyrightNoticeAfterTheTextGoesEvenWhenItIsLong() throws {
        let notice = "<p>© 2022 The Valley Courier. This article is the property of the Valley Courier; written permission "
            + "must be obtained before it is reprinted online or in print, in part or in full.</p>"
        let text = try Self.extract("<article>\(MainSpanTests.paragraphs)\(notice)</article>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("Valley Courier"))
    }

    @Test func aPictureLegendIsLeftOutOfTheText() throws {
        let picture = "<div class=picture><img src=/dam.jpg><div class=legend><p>The new dam at dawn, seen from the old mill.</p>"
            + "<p>Picture: J. Roe</p></div></div>"
        let text = try Self.textAround(picture)
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("The new dam at dawn"))
    }

    /// A box a class name hides everywhere goes, whatever the name's case and whether the
    /// class list holds other scripts; one shown at some screen size ("md:block") stays.
    @Test(arguments: ["D-None", "café d-none", "photo sr-only", "Ünïcode Screen-Reader-Text"])
    func aBoxHiddenByItsClassGoes(className: String) throws {
        // Two paragraphs: Readability turns a box of one paragraph into the paragraph, class gone.
        let box = "<div class=\"\(className)\"><p>Kept for screen readers: the flood map and its key, in words.</p>"
            + "<p>The key: blue is water, grey is road.</p></div>"
        let text = try Self.textAround(box)
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("Kept for screen readers"))
    }

    @Test func aBoxShownAtSomeScreenSizeStays() throws {
        let box = "<div class=\"d-none md:block\"><p>Shown on wide screens: the flood map and its key, in words.</p>"
            + "<p>The key: blue is water, grey is road.</p></div>"
        let text = try Self.textAround(box)
        #expect(text.contains("Shown on wide screens"))
    }

    /// Disclaimers, legal small print and a signature under the text are furniture by their
    /// names, even written as sentences.
    @Test(arguments: ["disclaimer", "legal-notice", "post-signature"])
    func smallPrintNamedSoAfterTheTextGoes(className: String) throws {
        let box = "<div class=\"\(className)\"><p>The views expressed here are the writer's own and not those of the "
            + "authority.</p><p>Figures are given without warranty of any kind.</p></div>"
        let text = try Self.extract("<article>\(MainSpanTests.paragraphs)\(box)</article>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains("without warranty"))
    }

    /// The standfirst under the headline, dropped with the article's header (or outside
    /// Readability's container), comes back once, before the text.
    @Test func theStandfirstInTheHeaderOpensTheText() throws {
        let standfirst = "Engineers plan a new spillway after the spring flood reached six villages."
        let page = "<article><header><h1>Flood report</h1><p class=\"article-lead\">\(standfirst)</p>"
            + "<time>12.04.2026</time></header><div class=body>\(MainSpanTests.paragraphs)</div></article>"
        let text = try Self.extract(page)
        #expect(text.hasPrefix(standfirst))
        #expect(text.components(separatedBy: "new spillway").count == 2)
        #expect(text.contains("Paragraph 6 of the report"))
    }

    /// A deck right under the headline comes back whatever its name (a bare `h2`, or a
    /// division that ends a sentence); a division there that ends none (the byline and date)
    /// does not.
    @Test(arguments: [
        ("h2", "Engineers plan a new spillway after the spring flood reached six villages", true),
        ("div", "Engineers plan a new spillway after the spring flood reached six villages.", true),
        ("div", "By Ana Ortiz and Jonas Berg, Valley Courier | Updated 12 April 2026, 08:40", false),
    ])
    func theDeckUnderTheHeadlineOpensTheText(tag: String, deck: String, kept: Bool) throws {
        let page = "<header><h1>Flood report</h1><\(tag)>\(deck)</\(tag)></header>"
            + "<div class=body>\(MainSpanTests.paragraphs)</div>"
        let text = try Self.extract(page)
        #expect(text.hasPrefix(deck) == kept)
        #expect(text.contains(deck) == kept)
        #expect(text.contains("Paragraph 6 of the report"))
    }

    /// A picture's legend set as a styled run after the picture in its paragraph (no
    /// figcaption) stays in the reader HTML and out of the text; an icon's label (an SVG
    /// image) and a paragraph that only opens with a picture are text.
    @Test(arguments: [
        ("<p><img src=/graph.png><br><em>(Credit: A. Analyst / Data Desk)</em></p>", false),
        ("<p><a href=/big.jpg><img src=/snow.jpg></a><span>Figure 4: a weak layer under fresh snow. Credit: Snow Lab</span></p>", false),
        ("<p><img src=/icons/hard.svg alt=Difficult><span>Difficult for most riders (Credit)</span></p>", true),
        ("<p><img src=/icon.png> Credit where it is due: the crews worked through the night.</p>", true),
    ])
    func aLegendAfterAPictureInItsParagraphIsACaption(paragraph: String, inText: Bool) throws {
        let html = "<html><head><title>Flood report</title></head><body><article>\(MainSpanTests.paragraphs)\(paragraph)"
            + "\(MainSpanTests.paragraphs)</article></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let article = try #require(try Extraction.extract(document, url: "https://example.org/flood", mode: .piper))
        #expect(article.textContent.contains("Credit") == inText)
        #expect(article.content.contains("Credit"))
        #expect(article.textContent.contains("Paragraph 6 of the report"))
    }

    /// A feedback prompt, a notice bar, a special offer and a player's controls under the text
    /// are furniture by their names.
    @Test(arguments: [
        ("page-feedback", "Was this page helpful to you today? Tell us what we could improve on it."),
        ("site-notice", "Our offices are closed on public holidays; answers may take a little longer."),
        ("special-offer", "Save twenty percent on your first order with the code SPRING at checkout."),
        ("media-controls", "Play the recording, pause it, or change its speed and volume at any time."),
    ])
    func aBoxNamedAsPageFurnitureAfterTheTextGoes(className: String, sentence: String) throws {
        let box = "<div class=\"\(className)\"><p>\(sentence)</p><p>Thank you.</p></div>"
        let text = try Self.extract("<article>\(MainSpanTests.paragraphs)\(box)</article>")
        #expect(text.contains("Paragraph 6 of the report"))
        #expect(!text.contains(String(sentence.prefix(20))))
    }
}
