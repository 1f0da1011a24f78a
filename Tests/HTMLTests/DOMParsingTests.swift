import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct DOMParsingTests {
    @Test func documentAccessors() throws {
        let doc = Document.parse("<!DOCTYPE html><html lang=en><head><title>\n  A   title \n</title></head><body class=b><p>x</p></body></html>")
        #expect(doc.documentElement?.localName == "html")
        #expect(doc.documentElement?.getAttribute("lang") == "en")
        #expect(doc.head?.localName == "head")
        #expect(doc.body?.className == "b")
        #expect(doc.title == "A title")
        #expect(doc.quirksMode == .noQuirks)
        #expect(Document.parse("<p>no doctype").quirksMode == .quirks)
        #expect(Document.parse("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">").quirksMode == .limitedQuirks)
    }

    @Test func innerHTMLGetAndSet() throws {
        let doc = Document.parse("<div id=t>old</div>")
        let div = try #require(doc.node.querySelector("#t"))
        div.innerHTML = "<p>One<p>Two &amp; <b>three</b>"
        #expect(div.innerHTML == "<p>One</p><p>Two &amp; <b>three</b></p>")
        #expect(div.children.count == 2)
        #expect(div.textContent == "OneTwo & three")
        #expect(div.outerHTML == "<div id=\"t\"><p>One</p><p>Two &amp; <b>three</b></p></div>")
        div.innerHTML = ""
        #expect(div.firstChild == nil)
    }

    @Test func innerHTMLUsesTheContextElement() throws {
        let doc = Document.parse("<table><tbody id=tb></tbody></table><textarea id=ta></textarea><template id=tp></template>")
        let tbody = try #require(doc.node.querySelector("#tb"))
        tbody.innerHTML = "<tr><td>a</td></tr>"
        #expect(tbody.innerHTML == "<tr><td>a</td></tr>")
        let textarea = try #require(doc.node.querySelector("#ta"))
        textarea.innerHTML = "<b>not a tag</b>"
        #expect(textarea.firstChild?.data == "<b>not a tag</b>")
        let template = try #require(doc.node.querySelector("#tp"))
        template.innerHTML = "<td>cell</td>"
        #expect(template.firstChild == nil)
        #expect(template.innerHTML == "<td>cell</td>")
    }

    @Test func parseFragmentWithContexts() {
        let (doc, fragment) = Document.parseFragment("<tr><td>x", context: "tbody")
        #expect(withExtendedLifetime(doc) { dumpTree(fragment) } == "| <tr>\n|   <td>\n|     \"x\"")
        let (svgDoc, svgFragment) = Document.parseFragment("<circle r=\"1\"/><foreignObject><p>hi", context: "svg g")
        #expect(withExtendedLifetime(svgDoc) { svgFragment.firstChild?.namespace } == .svg)
        #expect(withExtendedLifetime(svgDoc) { svgFragment.lastChild?.localName } == "foreignObject")
    }

    @Test func parseBytesDecodesCharset() throws {
        let latin1: [UInt8] = Array("<meta charset=windows-1252><p>caf".utf8) + [0xE9] + Array("</p>".utf8)
        let doc = Document.parse(bytes: latin1)
        #expect(doc.body?.textContent == "café")
        let utf8 = Document.parse(bytes: Array("<p>naïve</p>".utf8), options: ParseOptions(transportEncoding: "utf-8"))
        #expect(utf8.body?.textContent == "naïve")
    }

    @Test func scriptingFlagChangesNoscript() throws {
        let on = Document.parse("<body><noscript><p>x</p></noscript>")
        #expect(on.body?.firstChild?.firstChild?.isText == true)
        let off = Document.parse("<body><noscript><p>x</p></noscript>", options: ParseOptions(scripting: false))
        #expect(off.body?.firstChild?.firstChild?.localName == "p")
        #expect(on.body?.innerHTML == "<noscript><p>x</p></noscript>")
        #expect(off.body?.innerHTML == "<noscript><p>x</p></noscript>")
    }

    @Test func renameAfterParsingKeepsChildren() throws {
        let doc = Document.parse("<div id=a class=c><p>1</p>2</div>")
        let div = try #require(doc.node.querySelector("div"))
        div.rename(to: "p")
        #expect(doc.body?.innerHTML == "<p id=\"a\" class=\"c\"><p>1</p>2</p>")
    }
}
