import Foundation
import PiperTestSupport
import Testing
@testable import HTML

/// Script and raw-text element contents are kept as the tokenizer's bytes until read
/// (`Document.rawTexts`): every way of reading, changing, copying and serialising such a text
/// node must give what a text node built from a string gives.
@Suite(.ownThread) struct RawTextTests {
    static let page = """
        <html><head><style>p > a { content: "‘é’"; }</style>
        <script type="application/ld+json">{"headline": "Ünïcödé “quoted” — 日本語"}</script></head>
        <body><p>before</p><script>if (a < b && c > d) { s = "</p>"; }</script>
        <textarea>&amp; kept</textarea><xmp><b>raw</b></xmp><p>after</p>
        <svg><script>svg &lt; text</script></svg></body></html>
        """

    func element(_ doc: Document, _ name: String, _ n: Int = 0) throws -> Node {
        try #require(doc.node.descendants.filter { $0.localName == name }.dropFirst(n).first)
    }

    @Test func rawTextNodesStartUnconvertedAndReadAsTheirSource() throws {
        let doc = Document.parse(Self.page)
        #expect(doc.rawTexts.count == 4)  // style, ld+json, the body script, xmp (not textarea, not SVG's script)
        let json = try element(doc, "script")
        #expect(json.textContent == #"{"headline": "Ünïcödé “quoted” — 日本語"}"#)
        #expect(try element(doc, "style").firstChild?.data == #"p > a { content: "‘é’"; }"#)
        #expect(try element(doc, "script", 1).textContent == #"if (a < b && c > d) { s = "</p>"; }"#)
        #expect(try element(doc, "xmp").textContent == "<b>raw</b>")
        #expect(try element(doc, "textarea").textContent == "& kept")
        #expect(try element(doc, "script", 2).textContent == "svg < text")
    }

    @Test func treeAndSerializationMatchAParseFromBytesInChunks() throws {
        let whole = Document.parse(Self.page)
        let html = whole.node.innerHTML
        // Serialising before any read (bytes copied as they are) and after every node was read.
        for node in whole.node.descendants where node.isText { _ = node.data }
        #expect(whole.node.innerHTML == html)
        #expect(html.contains(#"<script>if (a < b && c > d) { s = "</p>"; }</script>"#))
        #expect(html.contains("<xmp><b>raw</b></xmp>"))
        let fresh = Document.parse(Self.page)
        #expect(fresh.node.innerHTML == html)
        #expect(dumpTree(fresh.node) == dumpTree(whole.node))
    }

    @Test func changingCopyingAndAppendingRawText() throws {
        let doc = Document.parse(Self.page)
        let script = try element(doc, "script", 1)
        let copy = script.cloneNode(deep: true)
        #expect(copy.textContent == script.textContent)
        script.firstChild?.data = "changed()"
        #expect(script.textContent == "changed()")
        #expect(copy.textContent == #"if (a < b && c > d) { s = "</p>"; }"#)
        script.appendChild(doc.createTextNode(" + more"))
        #expect(script.textContent == "changed() + more")
        let style = try element(doc, "style")
        style.textContent = "p {}"
        #expect(style.childNodes.count == 1 && style.textContent == "p {}")
        #expect(doc.node.innerHTML.contains("<script>changed() + more</script>"))
        #expect(copy.outerHTML == #"<script>if (a < b && c > d) { s = "</p>"; }</script>"#)
    }

    @Test func aScriptSplitAcrossChunksIsOneTextNode() throws {
        let bytes = Array(Self.page.utf8)
        let parser = DocumentParser(options: ParseOptions())
        var i = 0
        while i < bytes.count {
            parser.feed(Array(bytes[i..<min(bytes.count, i + 7)]))
            i += 7
        }
        let doc = parser.finish()
        let script = try element(doc, "script", 1)
        #expect(script.childNodes.count == 1)
        #expect(script.textContent == #"if (a < b && c > d) { s = "</p>"; }"#)
        #expect(doc.node.innerHTML == Document.parse(Self.page).node.innerHTML)
    }
}
