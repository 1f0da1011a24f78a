import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct DOMTests {
    /// <div id="a" class="x y"><p>Hello</p><!--c--><span>World</span></div> built by hand.
    func sample() -> (Document, Node) {
        let doc = Document()
        let div = doc.createElement("DIV")
        div.setAttribute("id", "a")
        div.setAttribute("class", "x y")
        doc.node.appendChild(div)
        let p = doc.createElement("p")
        p.appendChild(doc.createTextNode("Hello"))
        div.appendChild(p)
        div.appendChild(doc.createComment("c"))
        let span = doc.createElement("span")
        span.appendChild(doc.createTextNode("World"))
        div.appendChild(span)
        return (doc, div)
    }

    /// The bytes handed over are each text node's data, in document order: comments are left
    /// out, a script's text (kept unread as bytes) is in, and the walk stays inside the node.
    @Test func descendantTextUTF8MatchesTheTextNodes() throws {
        let doc = Document.parse("<p>before</p><div id=d>Caf\u{E9} <!--no--><b>bold</b><script>var x = 1;</script>tail</div><p>after</p>")
        let div = try #require(doc.body?.descendantElements(named: ["div"]).first)
        var strings: [String] = []
        div.forEachDescendantTextUTF8 { strings.append(String(decoding: $0, as: UTF8.self)) }
        #expect(strings == ["Caf\u{E9} ", "bold", "var x = 1;", "tail"])
        var viaStrings: [String] = []
        div.forEachDescendantText { viaStrings.append($0) }
        #expect(strings == viaStrings)
        // An element named in no search is never walked for; one renamed to it is found.
        #expect(div.descendantElements(named: ["dialog"]).isEmpty)
        let bold = try #require(div.descendantElements(named: ["b"]).first)
        bold.rename(to: "dialog")
        #expect(div.descendantElements(named: ["dialog"]) == [bold])
    }

    /// The early-stopping text walk asks in document order and stops at the first yes.
    @Test func anyDescendantTextStopsAtTheFirstYes() throws {
        let doc = Document.parse("<div id=d> <b>  </b>one<i>two</i></div>")
        let div = try #require(doc.body?.firstElementChild)
        var asked: [String] = []
        let found = div.anyDescendantTextUTF8 { bytes in
            asked.append(String(decoding: bytes, as: UTF8.self))
            return bytes.contains { $0 > 0x20 }
        }
        #expect(found)
        #expect(asked == [" ", "  ", "one"])
        #expect(!div.anyDescendantTextUTF8 { _ in false })
    }

    /// The index reads agree with the handle reads: the next element in tree order (with and
    /// without the children), the namespace and the attributes.
    @Test func indexReadsMatchTheHandles() throws {
        let doc = Document.parse("<div id=a class=x><p>t<b>u</b></p><svg><circle r=1></circle></svg></div><span>s</span>")
        let div = try #require(doc.body?.firstElementChild)
        let p = try #require(div.firstElementChild)
        let b = try #require(p.firstElementChild)
        let svg = try #require(p.nextElementSibling)
        let circle = try #require(svg.firstElementChild)
        let span = try #require(div.nextElementSibling)
        #expect(doc.nextElement(after: div.index) == p.index)
        #expect(doc.nextElement(after: p.index) == b.index)
        #expect(doc.nextElement(after: p.index, skippingChildren: true) == svg.index)
        #expect(doc.nextElement(after: circle.index) == span.index)
        #expect(doc.nextElement(after: span.index) == -1)
        #expect(doc.namespace(at: circle.index) == .svg && doc.namespace(at: div.index) == .html)
        #expect(doc.attributes(at: div.index) == div.attributes)
        #expect(doc.withAttributes(at: div.index) { $0.map(\.name) } == ["id", "class"])
        let text = try #require(p.firstChild)
        #expect(doc.withAttributes(at: text.index) { $0.count } == 0)
        #expect(doc.withTextUTF8(at: text.index) { String(decoding: $0, as: UTF8.self) } == "t")
        // A script's text, kept as bytes until read, reads the same in place.
        let script = try #require(Document.parse("<script>let s = 1;</script>").head?.firstChild?.firstChild)
        #expect(script.document.withTextUTF8(at: script.index) { String(decoding: $0, as: UTF8.self) } == "let s = 1;")
    }

    @Test func navigationAndNames() throws {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        #expect(div.localName == "div")
        #expect(div.tagName == "DIV")
        #expect(div.hasTag("div"))
        #expect(!div.hasTag("span"))
        #expect(!div.hasTag("DIV"))
        #expect(div.description == "<div#a.x.y>")
        #expect(div.firstChild?.firstChild?.description == "#text \"Hello\"")
        #expect(doc.documentElement == div)
        let p = try #require(div.firstChild)
        #expect(p.localName == "p")
        #expect(p.parent == div)
        #expect(p.parentElement == div)
        #expect(div.parentElement == nil)
        #expect(p.nextSibling?.kind == .comment)
        #expect(p.nextElementSibling?.localName == "span")
        #expect(div.lastElementChild?.previousElementSibling == p)
        #expect(div.childNodes.count == 3)
        #expect(div.children.count == 2)
        #expect(div.childElementCount == 2)
        #expect(div.contains(div))
        #expect(div.contains(try #require(p.firstChild)))
        #expect(!p.contains(div))
        #expect(div.descendants.map(\.kind) == [.element, .text, .comment, .element, .text])
    }

    @Test func mutation() throws {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        let p = try #require(div.firstElementChild)
        let span = try #require(div.lastElementChild)
        div.insertBefore(span, p)
        #expect(div.children.map(\.localName) == ["span", "p"])
        div.appendChild(span)
        #expect(div.children.map(\.localName) == ["p", "span"])
        let em = doc.createElement("em")
        #expect(div.replaceChild(em, p) == p)
        #expect(p.parent == nil)
        #expect(div.children.map(\.localName) == ["em", "span"])
        div.removeChild(em)
        #expect(div.childNodes.count == 2)
        span.remove()
        #expect(div.childNodes.count == 1)
        let fragment = doc.createDocumentFragment()
        fragment.appendChild(doc.createElement("a"))
        fragment.appendChild(doc.createElement("b"))
        div.appendChild(fragment)
        #expect(div.children.map(\.localName) == ["a", "b"])
        #expect(fragment.firstChild == nil)
    }

    @Test func renameKeepsChildrenAttributesAndPlace() throws {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        let p = try #require(div.firstElementChild)
        p.setAttribute("title", "t")
        let renamed = p.rename(to: "SECTION")
        #expect(renamed.localName == "section")
        #expect(renamed.getAttribute("title") == "t")
        #expect(renamed.textContent == "Hello")
        #expect(div.firstElementChild == renamed)
        renamed.rename(to: "my-widget")
        #expect(renamed.localName == "my-widget")
        #expect(renamed.outerHTML == "<my-widget title=\"t\">Hello</my-widget>")
    }

    @Test func attributes() {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        #expect(div.id == "a")
        #expect(div.className == "x y")
        #expect(div.getAttribute("ID") == "a")
        #expect(div.hasAttribute("class"))
        div.setAttribute("id", "b")
        #expect(div.id == "b")
        div.removeAttribute("id")
        #expect(!div.hasAttribute("id"))
        #expect(div.id == "")
        #expect(div.attributes.map(\.name) == ["class"])
        #expect(div.firstChild?.firstChild?.getAttribute("x") == nil)
    }

    @Test func textContent() throws {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        #expect(div.textContent == "HelloWorld")
        let text = try #require(div.firstChild?.firstChild)
        #expect(text.data == "Hello")
        text.data = "Bye"
        #expect(div.textContent == "ByeWorld")
        div.textContent = "plain"
        #expect(div.childNodes.count == 1)
        #expect(div.innerHTML == "plain")
        div.textContent = ""
        #expect(div.firstChild == nil)
    }

    @Test func cloneNode() throws {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        let shallow = div.cloneNode(deep: false)
        #expect(shallow.parent == nil)
        #expect(shallow.firstChild == nil)
        #expect(shallow.id == "a")
        let deep = div.cloneNode(deep: true)
        #expect(deep.outerHTML == div.outerHTML)
        deep.setAttribute("id", "z")
        #expect(div.id == "a")
    }

    @Test func snapshotKeepsTheTreeAsItWas() throws {
        let doc = Document.parse("<body><div id=a class=x><p>Hello</p><my-box>Box</my-box></div><script>if (a < b) {}</script></body>")
        let before = try #require(doc.body).outerHTML
        let snapshot = doc.snapshot()
        let body = try #require(doc.body)
        let div = try #require(body.firstElementChild)
        // Changes to the document after the snapshot: attributes, text, structure, new nodes.
        div.setAttribute("id", "z")
        div.firstElementChild?.firstChild?.data = "Changed"
        div.lastElementChild?.remove()
        div.appendChild(doc.createTextNode("added"))
        #expect(snapshot.counterpart(of: body).outerHTML == before)
        #expect(snapshot.counterpart(of: div).id == "a")
        // A raw text read in the snapshot is the page's, and reading it leaves the document alone.
        let script = try #require(body.lastElementChild)
        #expect(snapshot.counterpart(of: script).textContent == "if (a < b) {}")
        script.firstChild?.data = "later()"
        #expect(snapshot.counterpart(of: script).textContent == "if (a < b) {}")
        // Copied back, the subtree is the snapshot's, owned by the document and detached.
        let copy = doc.importNode(snapshot.counterpart(of: body))
        #expect(copy.document === doc && copy.parent == nil)
        #expect(copy.outerHTML == before)
        #expect(copy.getElementsByTagName("my-box").first?.localName == "my-box")
        #expect(body.outerHTML.contains("Changed") && !body.outerHTML.contains("my-box"))
    }

    @Test func importNodeFromAnotherDocument() throws {
        let other = Document.parse("<ul><li class=a>one<li>two<x-item>three</x-item></ul>")
        let list = try #require(other.node.getElementsByTagName("ul").first)
        let doc = Document()
        let shallow = doc.importNode(list, deep: false)
        #expect(shallow.outerHTML == "<ul></ul>")
        let copy = doc.importNode(list)
        #expect(copy.outerHTML == list.outerHTML)
        doc.node.appendChild(copy)
        #expect(doc.node.getElementsByTagName("x-item").count == 1)
        copy.firstElementChild?.setAttribute("class", "b")
        #expect(list.firstElementChild?.className == "a")
    }

    @Test func getElementsByTagName() {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        #expect(doc.node.getElementsByTagName("*").map(\.localName) == ["div", "p", "span"])
        #expect(div.getElementsByTagName("SPAN").count == 1)
        #expect(div.getElementsByTagName("div").isEmpty)
        #expect(div.getElementsByTagName("nothing").isEmpty)
    }

    @Test func handlesAreValues() {
        let (doc, div) = sample()
        defer { withExtendedLifetime(doc) {} }
        let again = doc.node.firstChild
        #expect(again == div)
        #expect(Set([div, div]).count == 1)
        #expect(Document().node != doc.node)
    }
}
