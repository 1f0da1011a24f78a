import Extraction
import CorpusEval
import Foundation
import HTML
import PiperTestSupport
import Testing

/// Teaser cards after the article's last paragraph ("Latest articles": a linked headline and a
/// summary each) go with the heading that introduced them; cards that are the page's own text
/// (a listing, a FAQ whose questions open in place) stay.
@Suite(.ownThread) struct TrailingCardTests {
    static func card(_ n: Int, href: String = "/story/") -> String {
        "<div class=item><h3><a href=\"\(href)\(n)\">Another story, number \(n), from the same section</a></h3>"
            + "<p>Its summary says in a sentence or two what happened and why readers might care about it.</p></div>"
    }

    /// Pages of trafilatura-eval whose teasers run on after the article, inside the container
    /// chosen: their summaries read as prose, so the main span ran on through them.
    @Test(arguments: [
        ("courgage-online.de.HIV.html", "so Kiess", ["Noch mehr Infos", "Emissionsfreier Strom"]),
        ("KATAPULT-Magazin.de-parteien.html", "Sonstige", ["Neueste Artikel", "Krieg und"]),
    ])
    func cardsAfterTheLastParagraphGoWithTheirHeading(file: String, kept: String, gone: [String]) throws {
        let text = try Self.extractCorpusPage(file)
        #expect(text.contains(kept))
        for teaser in gone { #expect(!text.contains(teaser), "\(teaser)") }
    }

    static func corpusPage(_ file: String) throws -> (html: String, url: String?) {
        let folder = Collection.corpusFolder(packageRoot: PiperTestSupport.packageRoot)
        let page = try #require(try Collection.trafilaturaEval.pages(in: folder).first { $0.id == file })
        return (String(decoding: try page.bytes(), as: UTF8.self), page.url)
    }

    static func extractCorpusPage(_ file: String, edit: (String) -> String = { $0 }) throws -> String {
        let page = try corpusPage(file)
        let document = Document.parse(edit(page.html), options: ArticlePipeline.parseOptions())
        return try Extraction.extract(document, url: page.url, mode: .piper)?.textContent ?? ""
    }

    /// A card whose headline is no link: a picture, a heading, a summary and "Read more"
    /// (greenpeace.de's "Mehr zu Klima und Konsum"). The same boxes without pictures are the
    /// page's sections and stay.
    @Test func cardsWithAReadMoreLinkGo() throws {
        func card(_ n: Int, picture: Bool) -> String {
            "<article>\(picture ? "<div><img src=\"/p\(n).jpg\"></div>" : "")<div><h3><span>Another campaign, number \(n)</span></h3>"
                + "<div><p>Its summary says in a sentence or two what campaign \(n) did, where it took place, who joined it "
                + "and why readers might care about it now that the season is over.</p>"
                + "<p><a href=\"/campaign/\(n)\">Read more</a></p></div></div></article>"
        }
        let teasers = "<div><h2>More on climate</h2><div>\((1...3).map { card($0, picture: true) }.joined())</div></div>"
        let text = try MainSpanTests.extract("<main>\(MainSpanTests.paragraphs)\(teasers)</main>")
        #expect(!text.contains("Another campaign") && !text.contains("what campaign"))
        #expect(!text.contains("More on climate"))
        let sections = "<div><h2>What we do</h2><div>\((1...3).map { card($0, picture: false) }.joined())</div></div>"
        let kept = try MainSpanTests.extract("<main>\(MainSpanTests.paragraphs)\(sections)</main>")
        #expect(kept.contains("what campaign 1 did") && kept.contains("what campaign 3 did"))
    }

    @Test func questionsThatOpenInPlaceStay() throws {
        let faq = "<div><h2>Questions</h2>\((1...3).map { Self.card($0, href: "#answer-") }.joined())</div>"
        let text = try MainSpanTests.extract("<article>\(MainSpanTests.paragraphs)\(faq)</article>")
        // The answers stay (a toggle's link text is another rule's: a heading all link goes).
        #expect(text.components(separatedBy: "Its summary says").count == 4)
    }

    @Test func cardsHoldingMostOfTheTextAreTheListing() throws {
        let intro = "<p>The section's stories of the week, newest first, as the editors chose them for readers.</p>"
        let text = try MainSpanTests.extract("<main>\(intro)\((1...8).map { Self.card($0) }.joined())</main>")
        #expect(text.contains("number 1, from the same section"))
        #expect(text.contains("number 8, from the same section"))
    }

    /// A video's page (trafilatura-eval's zdf.de.corona): a sign-up form outweighs the
    /// player's caption, which is the page's summary. The summary the page shows opens the
    /// text; with the caption's paragraph gone, the same summary in the metadata alone does not.
    @Test func aShortPageIsDescribedByTheSummaryItShows() throws {
        let summary = "New York ist das Epizentrum der Corona-Pandemie"
        let shown = try Self.extractCorpusPage("zdf.de.corona.html")
        #expect(shown.hasPrefix(summary))
        let caption = "<p class=\"item-description\" >"
        let hidden = try Self.extractCorpusPage("zdf.de.corona.html") { html in
            #expect(html.contains(caption))
            guard let start = html.range(of: caption), let end = html.range(of: "</p>", range: start.upperBound..<html.endIndex) else { return html }
            return html.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        }
        #expect(!hidden.contains(summary))
    }
}
