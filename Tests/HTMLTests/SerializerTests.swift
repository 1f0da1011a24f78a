import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct SerializerTests {
    @Test func escapesTextAndAttributes() {
        let doc = Document()
        let p = doc.createElement("p")
        p.setAttribute("title", "a \"q\" & <b>\u{A0}")
        p.appendChild(doc.createTextNode("x < y & z > w\u{A0}\"'"))
        doc.node.appendChild(p)
        #expect(p.outerHTML == "<p title=\"a &quot;q&quot; &amp; &lt;b&gt;&nbsp;\">x &lt; y &amp; z &gt; w&nbsp;\"'</p>")
    }

    @Test func voidElementsHaveNoEndTag() {
        let doc = Document()
        let div = doc.createElement("div")
        for name in ["br", "img", "hr", "input", "meta", "link", "wbr"] { div.appendChild(doc.createElement(name)) }
        #expect(div.innerHTML == "<br><img><hr><input><meta><link><wbr>")
    }

    @Test func rawTextElementsAreNotEscaped() {
        let doc = Document()
        let div = doc.createElement("div")
        for name in ["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"] {
            let e = doc.createElement(name)
            e.appendChild(doc.createTextNode("a<b&c"))
            div.appendChild(e)
        }
        #expect(div.innerHTML == "<style>a<b&c</style><script>a<b&c</script><xmp>a<b&c</xmp><iframe>a<b&c</iframe>"
            + "<noembed>a<b&c</noembed><noframes>a<b&c</noframes><plaintext>a<b&c</plaintext><noscript>a<b&c</noscript>")
        doc.scripting = false
        #expect(div.lastChild?.outerHTML == "<noscript>a&lt;b&amp;c</noscript>")
    }

    @Test func leadingNewlineInPre() {
        let doc = Document()
        let pre = doc.createElement("pre")
        pre.appendChild(doc.createTextNode("\nx"))
        #expect(pre.outerHTML == "<pre>\n\nx</pre>")
        let textarea = doc.createElement("textarea")
        textarea.appendChild(doc.createTextNode("y"))
        #expect(textarea.outerHTML == "<textarea>y</textarea>")
    }

    @Test func commentsDoctypeAndForeignAttributes() {
        let doc = Document()
        doc.node.appendChild(Node(doc, doc.newDoctype(DoctypeToken(name: "html"))))
        doc.node.appendChild(doc.createComment(" hi "))
        let svg = doc.createElement("svg", namespace: .svg)
        let use = doc.createElement("use", namespace: .svg)
        doc.attributeLists.append([Attribute(name: "href", value: "#a", namespace: .xlink, prefix: "xlink")])
        doc.nodes[Int(use.index)].payload = Int32(doc.attributeLists.count - 1)
        svg.appendChild(use)
        doc.node.appendChild(svg)
        #expect(doc.node.innerHTML == "<!DOCTYPE html><!-- hi --><svg><use xlink:href=\"#a\"></use></svg>")
        #expect(use.getAttribute("xlink:href") == "#a")
    }

    @Test func templateContentsAreSerialized() throws {
        let doc = Document()
        let template = doc.createElement("template")
        let content = try #require(template.templateContent)
        content.appendChild(doc.createElement("b"))
        #expect(template.outerHTML == "<template><b></b></template>")
        #expect(template.innerHTML == "<b></b>")
    }
}
