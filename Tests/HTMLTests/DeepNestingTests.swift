import Foundation
import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct DeepNestingTests {
    static let depth = Int(ProcessInfo.processInfo.environment["DEEP_NESTING_DEPTH"] ?? "") ?? 100_000

    /// 100,000 nested divs parse, serialize, give their textContent, query, dump and free
    /// without recursion (a recursive walk would overflow the test thread's stack).
    @Test func hundredThousandNestedDivs() throws {
        let depth = DeepNestingTests.depth
        let html = String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        var document: Document? = Document.parse(html)
        let doc = try #require(document)
        let body = try #require(doc.body)
        #expect(body.getElementsByTagName("div").count == depth)
        #expect(body.textContent == "deep")
        let inner = body.innerHTML
        let roundTrips = inner == html
        #expect(roundTrips)
        let innermost = try #require(body.querySelectorAll("div").last)
        #expect(innermost.textContent == "deep")
        #expect(innermost.firstChild?.isText == true)
        var levels = 0
        var node: Node? = innermost
        while let current = node, current.hasTag("div") { levels += 1; node = current.parent }
        #expect(levels == depth)
        let clone = body.cloneNode(deep: true)
        #expect(clone.textContent == "deep")
        withExtendedLifetime(doc) {}
        document = nil
        #expect(document == nil)
    }

    /// Unclosed nesting: the end-of-file path pops 100,000 open elements.
    @Test func unclosedNestingAndInnerHTMLRoundTrip() throws {
        let depth = DeepNestingTests.depth
        let html = String(repeating: "<span>", count: depth) + "x"
        let doc = Document.parse(html)
        let body = try #require(doc.body)
        #expect(body.getElementsByTagName("span").count == depth)
        let serialized = body.innerHTML
        let expected = String(repeating: "<span>", count: depth) + "x" + String(repeating: "</span>", count: depth)
        let matches = serialized == expected
        #expect(matches, "unexpected serialization ending \(serialized.suffix(60))")
        let target = doc.createElement("section")
        body.appendChild(target)
        target.innerHTML = serialized
        #expect(target.getElementsByTagName("span").count == depth)
        #expect(target.textContent == "x")
    }
}
