import Foundation
import HTML
import PiperTestSupport
import Testing
@testable import Extraction

/// The short blocks after an article's last paragraph of prose (a "more on this" heading, tag
/// lines, sharing prompts, a copyright line) leave the text, and the article's HTML with it, so
/// the reader page shows what the text says.
@Suite(.ownThread) struct TrailingFurnitureTests {
    static let prose = "The council voted on Tuesday to keep the library open for another year, after a long debate about its costs. "
        + "The mayor said the building would be repaired in the spring, and that the reading room would stay open late on Thursdays."

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var blocks: [String]
        var dropped: Set<Int>
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "a heading and tag lines after the last paragraph", blocks: [prose, "Related stories", "Tags: council, library"],
             dropped: [1, 2]),
        Case(name: "a copyright notice, whatever its length", blocks: [prose, prose, prose, prose,
                                                                      "© 2024 The Daily Example. All rights reserved: no part of this page may be copied, "
                                                                          + "stored or sent on without the written leave of its publisher."],
             dropped: [4]),
        Case(name: "a short sentence after the prose stays", blocks: [prose, "Short heading", "It closes at six."], dropped: [1]),
        Case(name: "a long block stays", blocks: [prose, String(repeating: "word ", count: 30)], dropped: []),
        Case(name: "short lines that are much of the text are the page's", blocks: [prose, "Monday 9–5", "Tuesday 9–5", "Wednesday 9–5",
                                                                                   "Thursday 9–5", "Friday 9–5", "Saturday 10–2"],
             dropped: []),
        Case(name: "no prose: nothing is trailing", blocks: ["Home", "News", "Sport"], dropped: []),
    ]

    @Test(arguments: cases)
    func theTrailingBlocks(_ c: Case) {
        let text = c.blocks.joined(separator: "\n\n")
        #expect(BlockText.trailingFurniture(c.blocks.map { Substring($0) }, textLength: text.utf8.count, .standard) == c.dropped)
    }

    /// Interior headings after the last paragraph of prose (`Tuning.trailingHeadingIntroduces`,
    /// off in the standard tuning): a short block followed by a sentence of that many bytes stays.
    static let steps = [prose, "Step 2", "Stir the flour into the butter until it is smooth.", "Step 3", "Bake it.", "Share this recipe"]
    static let introducedCases: [(introduces: Int, dropped: Set<Int>)] = [(0, [1, 3, 5]), (40, [3, 5]), (8, [5]), (60, [1, 3, 5])]

    @Test(arguments: introducedCases)
    func interiorHeadings(_ c: (introduces: Int, dropped: Set<Int>)) throws {
        let text = Self.steps.joined(separator: "\n\n")
        let tuning = try Tuning.standard.overriding(["trailingHeadingIntroduces": c.introduces])
        #expect(BlockText.trailingFurniture(Self.steps.map { Substring($0) }, textLength: text.utf8.count, tuning) == c.dropped)
    }

    /// An article's blocks that repeat an earlier one word for word (`Tuning.articleRepeatedBlock`,
    /// off in the standard tuning): the later copies leave, short repeats stay.
    static let repeatedCases: [(bytes: Int, dropped: Set<Int>)] = [(0, []), (60, [2, 4]), (300, [])]

    @Test(arguments: repeatedCases)
    func repeatedBlocks(_ c: (bytes: Int, dropped: Set<Int>)) throws {
        let blocks: [Substring] = [Substring(Self.prose), "Lorem", Substring(Self.prose), "Lorem", Substring(Self.prose)]
        let tuning = try Tuning.standard.overriding(["articleRepeatedBlock": c.bytes])
        #expect(BlockText.repeatedBlocks(blocks, tuning) == c.dropped)
    }

    /// The blocks the text leaves out are removed from the HTML too, with the boxes they leave
    /// empty; a picture in one stays.
    @Test func theHTMLLosesWhatTheTextLeavesOut() throws {
        let body = "<div id=root><p>\(Self.prose)</p><p>\(Self.prose)</p><h2>Related stories</h2>"
            + "<ul><li><a href=/a>Another story</a></li><li><a href=/b>A third</a></li></ul>"
            + "<div class=card><img src=x.jpg><span>Photo box</span></div><p>© 2024 The Daily Example</p></div>"
        let document = Document.parse("<html><body>\(body)</body></html>")
        let root = try #require(document.body?.firstChild)
        let text = BlockText.text(of: root, article: true, .standard)
        #expect(text == Self.prose + "\n\n" + Self.prose)
        #expect(root.innerHTML == "<p>\(Self.prose)</p><p>\(Self.prose)</p><div class=\"card\"><img src=\"x.jpg\"></div>")
    }

    /// Not an article (a thread, a listing): the walk changes nothing.
    @Test func notAnArticleKeepsItsHTML() throws {
        let body = "<div id=root><p>\(Self.prose)</p><h2>Related stories</h2></div>"
        let document = Document.parse("<html><body>\(body)</body></html>")
        let root = try #require(document.body?.firstChild)
        _ = BlockText.text(of: root, article: false, .standard)
        #expect(root.innerHTML == "<p>\(Self.prose)</p><h2>Related stories</h2>")
    }

    /// Through the whole pipeline, on the Readability corpus's hidden-nodes: the trailing
    /// headings the text leaves out are not in the article's HTML either.
    @Test func trailingHeadingsOnACorpusPage() throws {
        let source = packageRoot.appendingPathComponent("../shared/corpus/readability/hidden-nodes/source.html").standardizedFileURL
        let document = Document.parse(try String(contentsOf: source, encoding: .utf8), options: ArticlePipeline.parseOptions())
        let article = try #require(try Extraction.extract(document, mode: .piper))
        #expect(!article.textContent.contains("Secondary header"))
        #expect(!article.content.contains("Secondary header"))
        #expect(!article.content.contains("Third header"))
        #expect(article.content.contains("Lorem ipsum"))
    }
}
