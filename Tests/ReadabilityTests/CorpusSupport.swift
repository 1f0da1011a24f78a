import Extraction
import Foundation
import PiperTestSupport
import HTML
import Readability

/// The Readability corpus (`../shared/corpus/readability`) and the helpers the conformance
/// and speed checks share.
enum Corpus {
    static let packageRoot = PiperTestSupport.packageRoot
    static let folder = packageRoot.appendingPathComponent("../shared/corpus/readability").standardized
    static let pageURL = "http://fakehost/test/page.html"

    struct Case {
        let name: String
        let source: String
        let expectedHTML: String
        let metadata: [String: Any]
    }

    static func cases() throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var out: [Case] = []
        for name in names {
            let dir = folder.appendingPathComponent(name)
            let source = dir.appendingPathComponent("source.html")
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let metadataData = try Data(contentsOf: dir.appendingPathComponent("expected-metadata.json"))
            let metadata = try JSONSerialization.jsonObject(with: metadataData) as? [String: Any] ?? [:]
            out.append(Case(name: name,
                            source: try String(contentsOf: source, encoding: .utf8),
                            expectedHTML: try String(contentsOf: dir.appendingPathComponent("expected.html"), encoding: .utf8),
                            metadata: metadata))
        }
        return out
    }

    /// Parses as the article pipeline does (`ArticlePipeline.parseOptions`): scripting off, like
    /// the reference suite's JSDOM, so <noscript> holds markup.
    static func parse(_ html: String) -> Document {
        Document.parse(html, options: ArticlePipeline.parseOptions(url: pageURL))
    }

    /// The article pipeline in the exact readability mode with no minimum length: what the
    /// conformance test checks is Readability's own output.
    static let pipeline = ArticlePipeline(mode: .readability, options: ReadabilityOptions(classesToPreserve: ["caption"]),
                                          minimumTextLength: 0)

    /// The committed minimum for `key` in Ratchets/readability.txt (see `Ratchet`).
    static func ratchet(_ key: String) throws -> Int {
        try Ratchet.minimum(key, in: "Tests/ReadabilityTests/Ratchets/readability.txt")
    }
}

/// Mozilla's comparison: walk both trees in document order, skipping whitespace-only text and
/// treating adjacent sibling text as one; elements match on tag, id, class and attribute count
/// (and every attribute value when strict); text matches after collapsing whitespace runs (and
/// trimming, see `items`).
enum DOMCompare {
    enum Item: Equatable {
        case element(tag: String, attributes: [String: String], count: Int)
        case text(String)
    }

    static func items(_ html: String) -> [Item] {
        let doc = Corpus.parse(html)
        guard let body = doc.body else { return [] }
        var out: [Item] = []
        var pendingText = ""
        func flush() {
            // The reference suite pretty-prints both sides before comparing, which moves
            // whitespace at tag boundaries; trimming each text item stands in for that.
            let collapsed = collapse(pendingText).trimmingCharacters(in: .whitespaces)
            if !collapsed.isEmpty { out.append(.text(collapsed)) }
            pendingText = ""
        }
        for node in body.descendants {
            if node.isText {
                // Only sibling text nodes merge; text in another element is another item.
                if let previous = node.previousSibling, previous.isText {} else { flush() }
                pendingText += node.data
            } else if node.isElement {
                flush()
                var attributes: [String: String] = [:]
                for a in node.attributes { attributes[a.name] = a.value }
                out.append(.element(tag: node.localName, attributes: attributes, count: node.attributes.count))
            }
        }
        flush()
        return out
    }

    static func collapse(_ s: String) -> String {
        var out = ""
        var inSpace = false
        for c in s.unicodeScalars {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == "\u{A0}" {
                if !inSpace { out += " " }
                inSpace = true
            } else {
                out.unicodeScalars.append(c)
                inSpace = false
            }
        }
        return out
    }

    /// nil when equal, else a description of the first difference.
    static func firstDifference(actual: [Item], expected: [Item], strict: Bool) -> String? {
        for i in 0..<max(actual.count, expected.count) {
            guard i < actual.count else { return "item \(i): missing, expected \(describe(expected[i]))" }
            guard i < expected.count else { return "item \(i): unexpected \(describe(actual[i]))" }
            let a = actual[i], e = expected[i]
            switch (a, e) {
            case let (.element(t1, a1, c1), .element(t2, a2, c2)):
                if t1 != t2 || a1["id"] != a2["id"] || a1["class"] != a2["class"] || c1 != c2
                    || (strict && a1 != a2) {
                    return "item \(i): got \(describe(a)), expected \(describe(e))"
                }
            case let (.text(x), .text(y)):
                if x != y { return "item \(i): got \(describe(a)), expected \(describe(e))" }
            default:
                return "item \(i): got \(describe(a)), expected \(describe(e))"
            }
        }
        return nil
    }

    static func describe(_ item: Item) -> String {
        switch item {
        case let .element(tag, attributes, _):
            let attrs = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value.prefix(80))\"" }
            return "<\(([tag] + attrs).joined(separator: " "))>"
        case let .text(t):
            return "text \"\(t.prefix(120))\(t.count > 120 ? "…" : "")\""
        }
    }
}
