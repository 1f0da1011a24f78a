import HTML
import Testing
@testable import Extraction

/// An article that is mostly a list of items, each with its labelled values ("Format: Open
/// Textbook"): with `Tuning.articleListLabels` the cleaning keeps the labels in the list's items
/// and still drops a labelled promo outside it.
@Suite(.ownThread) struct ArticleListLabelsTests {
    static let blurb = "An open textbook for intermediate courses, written by five teachers from across the country and free to adapt."

    static func page(items: Int) -> String {
        let item = "<li><h3>A title</h3><p>\(blurb)</p><div class=terms>Format: <a href=/open-textbook>Open Textbook</a></div></li>"
        return "<div id=root><p>\(blurb)</p><ul>" + String(repeating: item, count: items) + "</ul>"
            + "<div class=box>See also: <a href=/other>Another page</a></div></div>"
    }

    static func cleaned(items: Int, share: Double) throws -> String {
        let document = Document.parse("<html><body>\(page(items: items))</body></html>")
        let root = try #require(document.body?.firstChild)
        _ = Classifier.clean(root, normalizedTitle: nil, tuning: try Tuning.standard.overriding(["articleListLabels": share]))
        return root.textContent
    }

    static let cases: [(items: Int, share: Double, labels: Int)] = [(4, 0, 0), (4, 0.5, 4), (3, 0.5, 0), (4, 0.9, 0)]

    @Test(arguments: cases)
    func labelsStayInTheListItems(_ c: (items: Int, share: Double, labels: Int)) throws {
        let text = try Self.cleaned(items: c.items, share: c.share)
        #expect(text.components(separatedBy: "Format:").count - 1 == c.labels)
        #expect(text.components(separatedBy: Self.blurb).count - 1 == c.items + 1)
        #expect(!text.contains("See also"))
    }
}
