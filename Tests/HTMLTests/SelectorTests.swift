import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct SelectorTests {
    /// <div id="main" class="a b"><p class="a">1</p><section><p data-x="y z">2</p><span>3</span></section></div><p>4</p>
    func sample() -> Document {
        let doc = Document()
        let div = doc.createElement("div")
        div.setAttribute("id", "main")
        div.setAttribute("class", "a b")
        doc.node.appendChild(div)
        let p1 = doc.createElement("p")
        p1.setAttribute("class", "a")
        p1.appendChild(doc.createTextNode("1"))
        div.appendChild(p1)
        let section = doc.createElement("section")
        div.appendChild(section)
        let p2 = doc.createElement("p")
        p2.setAttribute("data-x", "y z")
        p2.appendChild(doc.createTextNode("2"))
        section.appendChild(p2)
        let span = doc.createElement("span")
        span.appendChild(doc.createTextNode("3"))
        section.appendChild(span)
        let p4 = doc.createElement("p")
        p4.appendChild(doc.createTextNode("4"))
        doc.node.appendChild(p4)
        return doc
    }

    func texts(_ doc: Document, _ selector: String) -> [String] {
        doc.node.querySelectorAll(selector).map { $0.textContent }
    }

    @Test func simpleSelectors() {
        let doc = sample()
        #expect(texts(doc, "p") == ["1", "2", "4"])
        #expect(texts(doc, "P") == ["1", "2", "4"])
        #expect(doc.node.querySelectorAll("*").count == 6)
        #expect(texts(doc, ".a") == ["123", "1"])
        #expect(texts(doc, "#main").count == 1)
        #expect(texts(doc, "[data-x]") == ["2"])
        #expect(texts(doc, "[data-x=\"y z\"]") == ["2"])
        #expect(texts(doc, "[data-x='y']").isEmpty)
        #expect(texts(doc, "[data-x~=z]") == ["2"])
        #expect(texts(doc, "[class^=a]") == ["123", "1"])
    }

    @Test func compoundsAndCombinators() {
        let doc = sample()
        #expect(texts(doc, "div.a.b#main").count == 1)
        #expect(texts(doc, "p.a") == ["1"])
        #expect(texts(doc, "div p") == ["1", "2"])
        #expect(texts(doc, "div > p") == ["1"])
        #expect(texts(doc, "div>section>span") == ["3"])
        #expect(texts(doc, "#main span") == ["3"])
        #expect(texts(doc, "p + section").count == 1)
        #expect(texts(doc, "p ~ section").count == 1)
    }

    @Test func commaListsKeepDocumentOrder() {
        let doc = sample()
        #expect(texts(doc, "span, p.a") == ["1", "3"])
        #expect(texts(doc, "span , #main > p") == ["1", "3"])
    }

    @Test func scopeIsDescendantsOnly() throws {
        let doc = sample()
        let div = try #require(doc.node.querySelector("div"))
        #expect(div.querySelectorAll("p").map(\.textContent) == ["1", "2"])
        #expect(div.querySelectorAll("div").isEmpty)
        #expect(div.querySelector("section span")?.textContent == "3")
    }

    @Test func invalidSelectorsMatchNothing() {
        let doc = sample()
        #expect(doc.node.querySelectorAll("p:first-child").isEmpty)
        #expect(doc.node.querySelectorAll("").isEmpty)
        #expect(doc.node.querySelectorAll("p,").isEmpty)
        #expect(doc.node.querySelectorAll("[x").isEmpty)
    }
}
