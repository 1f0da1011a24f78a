import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// A modal box over the page (a consent banner, a sign-in prompt) is never the piper mode's
/// article, however much prose it holds.
@Suite(.ownThread) struct DialogTests {
    static let consent = (1...3).map { _ in
        "<p>We, and our partners, use cookies, pixels, local storage and similar methods to recognize visitors, remember their "
            + "preferences, measure, target and personalise advertising, analyse traffic, and, with your consent, share data.</p>"
    }.joined()
    /// More text than the dialog, in sentences without commas (Readability scores commas).
    static let story = "<div class=story><h1>The ferry returns</h1>"
        + "<p>After two winters in the yard, the old ferry is back on the lake, with a new engine and the same green benches.</p>"
        + "<p>The first crossing on Saturday was full, and the captain rang the bell twice, as his father did.</p>"
        + "<p>Tickets cost what they cost in 2019; the council says it will keep them there for another year.</p>"
        + (1...6).map { "<p>Stop \($0) on the new timetable has a shelter now and a board that shows when the boat is due.</p>" }.joined()
        + "</div>"

    static func page(dialog: String) -> String {
        "<html><head><title>The ferry returns</title></head><body>\(story)\(dialog)</body></html>"
    }

    static func extract(_ html: String, mode: ExtractionMode) throws -> String {
        try extractedText(html, url: "https://example.org/ferry", mode: mode) ?? ""
    }

    /// (Readability drops boxes with a dialog role itself, on its first pass.)
    @Test(arguments: ["<div aria-modal=true>", "<dialog open>"])
    func aConsentDialogIsNoArticle(opening: String) throws {
        let closing = opening.hasPrefix("<dialog") ? "</dialog>" : "</div>"
        let html = Self.page(dialog: opening + Self.consent + closing)
        let readability = try Self.extract(html, mode: .readability)
        #expect(readability.contains("partners, use cookies"), "Readability scores the dialog's commas higher")
        let text = try Self.extract(html, mode: .piper)
        #expect(text.contains("the captain rang the bell twice"))
        #expect(text.contains("Stop 6 on the new timetable"))
        #expect(!text.contains("use cookies"))
    }

    @Test func aPageThatIsOneDialogKeepsIt() throws {
        let html = "<html><head><title>Sign in</title></head><body><div role=dialog>\(Self.consent)</div></body></html>"
        let text = try Self.extract(html, mode: .piper)
        #expect(text.contains("partners, use cookies"), "a box holding most of the page is its content")
    }
}
