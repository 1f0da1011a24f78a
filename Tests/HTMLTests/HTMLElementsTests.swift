import PiperTestSupport
import Testing
import HTML

/// `HTMLElements` against the parser it describes: a category that drifted from the tree
/// builder's rules would make the sanitizer's fixed-point checks wrong.
@Suite(.ownThread) struct HTMLElementsTests {
    /// For every name HTML knows, `<p>t<name>` closes the `p` exactly when `closesParagraph` says so.
    @Test func closesParagraphMatchesTheTreeBuilder() throws {
        var checked = 0
        for id in 0..<HTMLElements.knownCount {
            let name = try #require(HTMLElements.name(id))
            guard name != "html" && name != "body" else { continue }   // their attributes merge into the open ones
            let doc = Document.parse("<!DOCTYPE html><body><p id=outer>t<\(name) id=probe>")
            guard let probe = doc.node.descendants.first(where: { $0.isElement && $0.getAttribute("id") == "probe" }),
                  probe.localName == name else { continue }   // ignored in body, or renamed (image, foreignObject)
            let closed = probe.parentElement?.getAttribute("id") != "outer"
            #expect(closed == HTMLElements.closesParagraph(id), "\(name)")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test func categoriesByName() {
        #expect(HTMLElements.isSpecial("li") && HTMLElements.isSpecial("table") && !HTMLElements.isSpecial("span"))
        #expect(HTMLElements.isVoid("br") && HTMLElements.isVoid("source") && !HTMLElements.isVoid("p"))
        #expect(HTMLElements.isHeading("h6") && !HTMLElements.isHeading("header"))
        #expect(HTMLElements.boundsButtonScope("td") && !HTMLElements.boundsButtonScope("div"))
        #expect(HTMLElements.tableParents("tr") == ["tbody", "thead", "tfoot"])
        #expect(HTMLElements.tableParents("div") == nil)
        #expect(HTMLElements.isTableContainer("tbody") && !HTMLElements.isTableContainer("td"))
        #expect(!HTMLElements.isSpecial("not-a-known-name") && HTMLElements.id("not-a-known-name") == nil)
    }

    /// The serializer writes no end tag for exactly the void elements.
    @Test func serializerFollowsIsVoid() throws {
        for name in ["br", "img", "source", "hr", "p", "span", "div"] {
            let doc = Document.parse("<!DOCTYPE html><body><\(name)>")
            let body = try #require(doc.body)
            #expect(body.innerHTML.hasSuffix("</\(name)>") != HTMLElements.isVoid(name), "\(name)")
        }
    }
}
