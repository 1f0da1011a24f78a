import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// An element holding a large share of the container's text is never dropped, but an `aside`
/// of headline lists beside a short article holds its share in links: it goes.
@Suite(.ownThread) struct LinkListFurnitureTests {
    static let article = "<article><h1>Gas leak closes the village</h1>"
        + "<p>Police closed the village centre on Wednesday after a gas main was damaged by construction work near the "
        + "station. There are no evacuations, but residents are urged to avoid the area while crews repair the line.</p>"
        + "<p>The area is densely populated, with apartment buildings on both sides of the road.</p>"
        + "<p>The utility said that the repair would take until the evening, and that the road stays closed to traffic, "
        + "buses included, until the crews have checked every connection on the street.</p></article>"

    static func page(aside: String) -> String {
        "<html><head><title>Gas leak closes the village</title></head><body><main id=main>\(article)\(aside)</main></body></html>"
    }

    static func extract(_ html: String) throws -> String {
        try extractedText(html, url: "https://example.org/gas-leak", mode: .piper) ?? ""
    }

    @Test func anAsideOfHeadlinesGoesThoughItHoldsMuchOfTheText() throws {
        // Dated headlines: the <main> around article and aside holds more text outside links
        // than the article, so it is the container chosen, and the aside must be cleaned out.
        let headlines = (1...12).map { "<li><a href=\"/story/\($0)\">Council approves a new budget for the schools, story number \($0)</a> <span class=post-date>November 8, 2023 | 7:44 pm</span></li>" }
        let aside = "<aside class=widget-area><h2>Trending now</h2><ul>\(headlines.joined())</ul></aside>"
        let text = try Self.extract(Self.page(aside: aside))
        #expect(text.contains("Police closed the village centre"))
        #expect(!text.contains("Trending now"))
        #expect(!text.contains("story number 7"))
    }

    @Test func anAsideOfProseHoldingMuchOfTheTextStays() throws {
        let aside = "<aside><h2>How the network works</h2><p>" + String(repeating: "Gas reaches the houses through low-pressure "
            + "pipes that the utility inspects every spring, and a damaged main is closed at the nearest valve. ", count: 3)
            + "</p></aside>"
        let text = try Self.extract(Self.page(aside: aside))
        #expect(text.contains("Police closed the village centre"))
        #expect(text.contains("inspects every spring"))
    }

    @Test func aHeadingOverRemovedLinksGoesWithThem() throws {
        let links = (1...4).map { "<li><a href=\"/more/\($0)\">Another story, number \($0)</a></li>" }.joined()
        let html = "<html><head><title>Gas leak closes the village</title></head><body><div class=story>"
            + Self.article.replacingOccurrences(of: "</article>", with: "<h2>Read more from the region</h2><ul>\(links)</ul>"
                + "<h2>What happens next</h2><p>The council meets on Monday to decide whether the construction work may "
                + "go on, and the utility will publish its report on the cause of the damage within two weeks.</p></article>")
            + "</div></body></html>"
        let text = try Self.extract(html)
        #expect(!text.contains("Another story"))
        #expect(!text.contains("Read more from the region"))
        #expect(text.contains("What happens next"))
        #expect(text.contains("The council meets on Monday"))
    }
}
