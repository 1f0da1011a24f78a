import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// A site menu is a list of many short, alike items, so it looks like a listing. Under a box
/// named as navigation (`<ul id="nav">`) it never stands in for a short article.
@Suite(.ownThread) struct NavigationRepeatTests {
    static let sections = ["Politics", "Culture", "Elections and votes", "Football", "Ice hockey", "Athletics",
                           "Other sports", "District north", "District south", "Region", "Economy", "Society",
                           "Clubs", "Farming", "Police", "Events calendar", "Night cafe", "Readers' trips",
                           "Photo gallery", "Classifieds", "Jobs", "Property"]

    static func page(menuAttributes: String) -> String {
        let items = sections.map { "<li><a href=\"/\($0.lowercased())\">\($0) section of the paper</a></li>" }.joined()
        return "<html><head><title>Good wages are not enough</title></head><body>"
            + "<div class=top><ul \(menuAttributes)>\(items)</ul></div>"
            + "<div class=story><h1>Good wages are not enough</h1>"
            + "<p>The centre invited employers to a round table. The participants talked about how firms can find "
            + "enough staff while skilled workers are scarce.</p></div></body></html>"
    }

    static func extract(_ html: String) throws -> String {
        try extractedText(html, url: "https://example.org/wages", mode: .piper) ?? ""
    }

    @Test func aMenuNamedNavIsNoListing() throws {
        let text = try Self.extract(Self.page(menuAttributes: "id=\"nav\""))
        #expect(text.contains("The centre invited employers"))
        #expect(!text.contains("Football section"))
    }

    @Test func aMenuInsideASidebarIsNoListing() throws {
        let text = try Self.extract(Self.page(menuAttributes: "class=\"links\"").replacingOccurrences(of: "<div class=top>", with: "<div id=\"sidebar\">"))
        #expect(text.contains("The centre invited employers"))
        #expect(!text.contains("Football section"))
    }
}
