import Foundation
import Testing
@testable import PiperServer

/// The reader page's body as one column of blocks: boxes holding only blocks are unwrapped, in
/// order; a box with text of its own stays, and so does everything else.
@Suite(.ownThread) struct ReaderColumnTests {
    @Test(arguments: [
        ("<div><section><p>a</p><p>b</p></section></div>", "<p>a</p><p>b</p>"),
        ("<article><header><h1>T</h1></header><div><p>x</p><ul><li>1</li></ul></div><footer><p>end</p></footer></article>",
         "<h1>T</h1><p>x</p><ul><li>1</li></ul><p>end</p>"),
        ("<div>text of its own<p>p</p></div>", "<div>text of its own<p>p</p></div>"),
        ("<div><span>inline</span></div><p>kept</p>", "<div><span>inline</span></div><p>kept</p>"),
        ("<aside>\n  <p>note</p>\n</aside>", "\n  <p>note</p>\n"),
        ("<p>Nothing to unwrap: <a href=\"https://e.org/\">a link</a></p>", "<p>Nothing to unwrap: <a href=\"https://e.org/\">a link</a></p>"),
        ("<ul><li><div><p>in a list</p></div></li></ul>", "<ul><li><p>in a list</p></li></ul>"),
    ])
    func boxesOfBlocksAreUnwrapped(_ input: String, _ expected: String) {
        #expect(ReaderColumn.flatten(input) == expected)
    }
}
