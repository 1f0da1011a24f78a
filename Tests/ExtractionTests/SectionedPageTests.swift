import Extraction
import Foundation
import PiperTestSupport
import Testing

/// A page of many headed sections (a service or landing page): Readability takes the one
/// section with the longest prose; the piper mode keeps the sections.
@Suite(.ownThread) struct SectionedPageTests {
    /// Twenty sections of a heading and one short line each (shorter than the 25 characters
    /// Readability scores a paragraph from).
    static let features = (1...20).map {
        "<div class=feature-card><h3>Feature \($0)</h3><p>Calendars for \($0) teams.</p></div>"
    }.joined()
    static let story = "<div class=story><h2>Our story</h2><p>We started the company in a spare room, with two laptops, a borrowed printer, "
        + "and a long list of the things that annoyed us about scheduling software.</p><p>Ten years later, the list is shorter, "
        + "the room is bigger, and the printer, at last, is ours.</p><p>We still answer every message ourselves, "
        + "from the same room, before lunch.</p></div>"

    static func page(_ body: String) -> String {
        "<html><head><title>Planner</title></head><body><header><nav><a href=/>Home</a> <a href=/pricing>Pricing</a></nav></header>"
            + body + "<footer><a href=/terms>Terms</a> <a href=/privacy>Privacy</a></footer></body></html>"
    }

    @Test func theSectionsOfALandingPageAreTheContent() throws {
        let html = Self.page("<div class=hero><h1>Planner</h1><p>Scheduling for small teams.</p></div>"
            + "<div class=features>\(Self.features)</div>\(Self.story)")
        let readability = try SecondStrategyTests.extract(html, mode: .readability) ?? ""
        #expect(readability.contains("We started the company"))
        #expect(!readability.contains("Calendars for 3 teams"), "Readability takes the story alone")
        let text = try #require(try SecondStrategyTests.extract(html))
        #expect(text.contains("We started the company"))
        for n in 1...20 { #expect(text.contains("Calendars for \(n) teams"), "section \(n) missing") }
        #expect(!text.contains("Privacy"))
    }

    @Test func anArticleBesideHeadedTeasersKeepsItsOwnText() throws {
        let paragraphs = (1...8).map {
            "<p>Paragraph \($0) of the report describes, in several plain sentences, how the river authority measured the spring "
                + "flood, which villages it reached, and what the engineers plan to change before the next one.</p>"
        }.joined()
        let teasers = (1...8).map { "<div class=teaser><h3>Other story \($0)</h3><p>A short blurb about story \($0).</p></div>" }.joined()
        let html = Self.page("<div class=article><h1>Flood report</h1>\(paragraphs)</div><div class=more>\(teasers)</div>")
        let text = try #require(try SecondStrategyTests.extract(html))
        #expect(text.contains("Paragraph 8 of the report"))
        #expect(!text.contains("A short blurb about story 2"), "a few teasers beside a long text stay out")
    }
}
