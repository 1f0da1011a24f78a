import Foundation
import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct LargeDocumentTests {
    /// A 20 MB document with tables, lists, inline formatting and entities parses completely,
    /// and its serialization parses back to the same tree.
    @Test func twentyMegabyteDocument() throws {
        var html = "<!DOCTYPE html><html><head><title>Big  page</title></head><body>"
        let chunk = """
        <div class="post" id="p{n}"><h2>Heading {n}</h2><p>Some <b>bold</b> and <i>italic</i> text &amp; an \
        <a href="/x?a=1&amp;b={n}">anchor</a>.</p><ul><li>one<li>two</ul><table><tr><td>cell {n}<td>more</table>\
        <!-- note {n} --></div>

        """
        var n = 0
        while html.utf8.count < 20_000_000 {
            html += chunk.replacingOccurrences(of: "{n}", with: String(n))
            n += 1
        }
        html += "</body></html>"
        let doc = Document.parse(html)
        #expect(doc.title == "Big page")
        let body = try #require(doc.body)
        #expect(body.querySelectorAll("div.post").count == n)
        #expect(body.getElementsByTagName("td").count == 2 * n)
        #expect(body.getElementsByTagName("li").count == 2 * n)
        #expect(body.querySelector("#p\(n - 1) td")?.textContent == "cell \(n - 1)")
        let serialized = doc.documentElement?.outerHTML ?? ""
        #expect(serialized.utf8.count > 19_000_000)
        let reparsed = Document.parse("<!DOCTYPE html>" + serialized)
        let roundTrips = reparsed.documentElement?.outerHTML == serialized
        #expect(roundTrips)
    }
}
