import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// The plain text leaves figure captions out, unless the captions are the article: a gallery
/// whose story is told under its pictures.
@Suite(.ownThread) struct GalleryCaptionTests {
    static let rooms = ["kitchen", "bathroom", "garden", "attic", "hallway"]

    static func page(captionRepeats: Int) -> String {
        let slides = rooms.map { room in
            "<figure><img src=\"/\(room).jpg\" alt=\"\"><figcaption>"
                + String(repeating: "The \(room) of the winning project keeps its old beams and gains daylight from the roof. ", count: captionRepeats)
                + "</figcaption></figure>"
        }.joined()
        return "<html><head><title>The best projects of the year</title></head><body><article>"
            + "<h1>The best projects of the year</h1>"
            + "<p>Our readers chose the projects of the year by their clicks, and these are the winners, room by room, "
            + "from the kitchen to the attic, with what their designers said about the work.</p>"
            + slides + "</article></body></html>"
    }

    static func extract(_ html: String) throws -> String {
        try extractedText(html, url: "https://example.org/projects", mode: .piper) ?? ""
    }

    @Test func captionsThatHoldMostOfTheTextAreKept() throws {
        let text = try Self.extract(Self.page(captionRepeats: 2))
        #expect(text.contains("Our readers chose the projects"))
        #expect(text.contains("The attic of the winning project"))
    }

    @Test func shortCaptionsAreLeftOutOfTheText() throws {
        let html = Self.page(captionRepeats: 0).replacingOccurrences(of: "<figcaption></figcaption>", with: "<figcaption>Photo: studio</figcaption>")
            .replacingOccurrences(of: "</p>", with: "</p>" + String(repeating: "<p>The jury of readers voted for a month, and more "
                + "people took part than in any year before, so the winners were announced a week later than planned.</p>", count: 3))
        let text = try Self.extract(html)
        #expect(text.contains("The jury of readers voted"))
        #expect(!text.contains("Photo: studio"))
    }
}
