import Extraction
import Foundation
import PiperTestSupport
import Testing

/// An article whose body is split across sibling boxes of the page (a head section, then
/// blocks of text between tables): Readability takes the one block with the most prose; the
/// piper mode takes the box that holds the page's prose, when it holds Readability's text and
/// more of its own.
@Suite(.ownThread) struct SplitBodyTests {
    static func block(_ name: String, _ count: Int) -> String {
        let paragraphs = (1...count).map {
            "<p>\(name) paragraph \($0) explains, in several plain sentences, how the gas is made from methanol, how it burns "
                + "with little soot, and why the engineers think it may one day heat houses without any change to the burner.</p>"
        }.joined()
        return "<div class=\"container-fluid text-block\"><div class=container><div class=row><div class=col-md-8>"
            + paragraphs + "</div><div class=col-md-4><img src=flame.png></div></div></div></div>"
    }

    static func table(_ n: Int) -> String {
        "<div class=\"container-fluid near-table\"><table><tr><td>Density \(n)</td><td>0.7\(n)</td></tr></table></div>"
    }

    static let html = "<html><head><title>Dimethyl ether</title></head><body>"
        + "<section class=top><nav><a href=/>Home</a> <a href=/topics>Topics</a></nav></section>"
        + "<section class=head-post><div class=container><h1>Dimethyl ether</h1>"
        + "<p>The demand for renewable fuels grows every year, and one of them is already sold in small bottles.</p></div></section>"
        + block("First", 2) + table(1) + block("Second", 5) + table(2) + block("Third", 5)
        + "<footer><a href=/imprint>Imprint</a> <a href=/privacy>Privacy</a></footer></body></html>"

    @Test func theBoxHoldingEveryBlockIsTheArticle() throws {
        let readability = try SecondStrategyTests.extract(Self.html, mode: .readability) ?? ""
        #expect(readability.contains("Second paragraph 5"))
        #expect(!readability.contains("Third paragraph 1"), "Readability takes one block")
        let text = try #require(try SecondStrategyTests.extract(Self.html))
        #expect(text.contains("The demand for renewable fuels"))
        for name in ["First", "Second", "Third"] { #expect(text.contains("\(name) paragraph 2 explains"), "\(name) missing") }
        #expect(!text.contains("Privacy"))
    }

    @Test func aPageThatShowsTheArticleTwiceKeepsOneCopy() throws {
        let copy = "<div class=row><div class=col-8>" + (1...10).map {
            "<p>Paragraph \($0) of the guide sets out, in several plain sentences, what a yoga class costs in a small town, "
                + "what it costs in a city, and which of the two an instructor should start from.</p>"
        }.joined() + "</div><div class=col-4><img src=studio.png></div></div>"
        let html = "<html><head><title>Prices</title></head><body><div class=main>"
            + "<div class=layout-normal><div class=section>\(copy)</div></div>"
            + "<div class=\"layout-gated invisible-when-free\"><div class=section>\(copy)</div></div>"
            + "</div></body></html>"
        let readability = try SecondStrategyTests.extract(html, mode: .readability) ?? ""
        #expect(readability.components(separatedBy: "Paragraph 3 of the guide").count == 2, "Readability takes one copy")
        let text = try #require(try SecondStrategyTests.extract(html))
        #expect(text.contains("Paragraph 10 of the guide"))
        #expect(text.components(separatedBy: "Paragraph 3 of the guide").count == 2, "one copy")
    }
}
