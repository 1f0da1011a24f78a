import Foundation
import Testing
@testable import PiperServer

/// The reader page's body as one column of blocks: boxes holding only blocks are unwrapped, in
/// order; a box with text of its own and blocks stays, a box of only inline text is served as a
/// paragraph, a heading that is one link is served inside the link, and everything else stays. A list item's lone
/// paragraph is served as the item's text, a caption's content is marked as the figure's, and a
/// layout table (one row or one column, no header, blocks in a cell) is served as its cells.
@Suite(.ownThread) struct ReaderColumnTests {
    @Test(arguments: [
        ("<div><section><p>a</p><p>b</p></section></div>", "<p>a</p><p>b</p>"),
        ("<article><header><h1>T</h1></header><div><p>x</p><ul><li>1</li></ul></div><footer><p>end</p></footer></article>",
         "<h1>T</h1><p>x</p><ul><li>1</li></ul><p>end</p>"),
        ("<div>text of its own<p>p</p></div>", "<div>text of its own<p>p</p></div>"),
        ("<div><span>inline</span></div><p>kept</p>", "<p><span>inline</span></p><p>kept</p>"),
        ("<header>\n A summary under the headline, <em>in a header</em>.\n</header><p>x</p>",
         "<p>\n A summary under the headline, <em>in a header</em>.\n</p><p>x</p>"),
        ("<h3> <a href=\"https://e.org/g\" title=\"g\">Rez <em>Infinite</em> ($30)</a> </h3><p>x</p>",
         "<a href=\"https://e.org/g\" title=\"g\"><h3> Rez <em>Infinite</em> ($30) </h3></a><p>x</p>"),
        ("<h2>Read <a href=\"https://e.org/g\">the report</a></h2>", "<h2>Read <a href=\"https://e.org/g\">the report</a></h2>"),
        ("<h2><div>A heading's box</div></h2><div>text</div>", "<h2><div>A heading's box</div></h2><p>text</p>"),
        ("<footer><img src=\"https://e.org/a.jpg\"> </footer>", "<footer><img src=\"https://e.org/a.jpg\"> </footer>"),
        ("<aside>\n  <p>note</p>\n</aside>", "\n  <p>note</p>\n"),
        ("<p>Nothing to unwrap: <a href=\"https://e.org/\">a link</a></p>", "<p>Nothing to unwrap: <a href=\"https://e.org/\">a link</a></p>"),
        ("<ul><li><div><p>in a list</p></div></li></ul>", "<ul><li>in a list</li></ul>"),
        ("<ol>\n<li> <p>one <em>item</em></p> </li><li><p>a</p><p>b</p></li><li>x<p>y</p></li></ol>",
         "<ol>\n<li> one <em>item</em> </li><li><p>a</p><p>b</p></li><li>x<p>y</p></li></ol>"),
        ("<table><tr><td><p>text</p><ul><li>a</li><li>b</li></ul></td><td>notes</td></tr></table>",
         "<p>text</p><ul><li>a</li><li>b</li></ul><p>notes</p>"),
        ("<table><tr><td><p>1</p></td><td><p>2</p></td></tr><tr><td><p>3</p></td><td><p>4</p></td></tr></table>",
         "<table><tr><td><p>1</p></td><td><p>2</p></td></tr><tr><td><p>3</p></td><td><p>4</p></td></tr></table>"),
        ("<table><tr><th>h</th></tr><tr><td><p>x</p></td></tr></table>", "<table><tr><th>h</th></tr><tr><td><p>x</p></td></tr></table>"),
        ("<table><tr><td>a</td><td>b</td></tr></table>", "<table><tr><td>a</td><td>b</td></tr></table>"),
        ("<p><span>[figure omitted]</span> <a href=\"https://youtube.com/embed/x\">▶ Video: youtube.com/embed/x</a></p>",
         "<p><span class=\"media-caption extra\">[figure omitted]</span> <span class=\"media-caption extra\"><a href=\"https://youtube.com/embed/x\">▶ Video: youtube.com/embed/x</a></span></p>"),
        ("<figure><img src=\"https://e.org/a.jpg\"><figcaption>A <b>cap</b></figcaption></figure><figure><figcaption></figcaption></figure>",
         "<figure><img src=\"https://e.org/a.jpg\"><figcaption><div class=\"media-caption extra\">A <b>cap</b></div></figcaption></figure><figure><figcaption></figcaption></figure>"),
    ])
    func boxesOfBlocksAreUnwrapped(_ input: String, _ expected: String) {
        #expect(ReaderColumn.flatten(input) == expected)
    }
}
