import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// A page that writes its layout with a script and keeps the whole page, article included,
/// in a `<noscript>` for browsers without scripts: the piper mode reads it as such a browser
/// shows it. Readability drops `<noscript>` and takes the script's menu.
@Suite(.ownThread) struct ScriptlessPageTests {
    static let html: String = {
        let menu = (1...12).map { "<li><a href=\"/area\($0)\">Area \($0) of the park, its animals and its paths</a></li>" }.joined()
        let text = (1...4).map {
            "<p>Paragraph \($0): the census counted more bears this year than in any year before, and the rangers "
                + "explain which valleys the young ones have moved to, and why.</p>"
        }.joined()
        return "<html><head><title>A record year for bears</title></head><body><div id=menu><ul>\(menu)</ul></div>"
            + "<noscript><div id=page><div id=text><h1>A record year for bears</h1>\(text)</div></div></noscript></body></html>"
    }()

    @Test func theNoscriptPageIsRead() throws {
        let readability = try extractedText(Self.html, url: "https://park.example/news/1", mode: .readability)
        #expect(readability?.contains("the census counted") != true, "Readability drops the <noscript>")
        let text = try #require(try extractedText(Self.html, url: "https://park.example/news/1"))
        #expect(text.contains("Paragraph 4: the census counted more bears"))
    }
}
