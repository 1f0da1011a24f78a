// One walk over a _cleanConditionally candidate's subtree, gathering everything its checks
// look at (lists, tables, counts, headings, embeds, links, text-density tags), instead of
// one getElementsByTagName walk per check.
import HTML

struct CleanCensus {
    static let headingTags = TagSet(where: HTMLElements.isHeading)
    static let embedTags = TagSet(["object", "embed", "iframe"])
    /// Every name the walk files somewhere.
    static let counted = TagSet(["ul", "ol", "table", "p", "img", "li", "input", "a", "h1", "h2", "h3", "h4", "h5", "h6",
                                 "object", "embed", "iframe", "span", "td", "blockquote", "dl", "div", "pre"])
    // Element indices in the document, not handles: a handle holds its document, a
    // reference count per element filed.
    var lists: [Int32] = []
    var tables: [Int32] = []
    var headings: [Int32] = []
    var embeds: [Int32] = []
    var links: [Int32] = []
    var densityNodes: [Int32] = []
    var p = 0
    var img = 0
    var li = 0
    var input = 0
    /// `_getInnerText(root)` length and comma counts, from the same walk.
    var text = TextScanner(normalizeSpaces: true)

    /// Elements under `root` (not `root` itself), by local name, in document order.
    init(_ root: Node, pieces: TextPieces) {
        let doc = root.document
        let top = root.index
        if doc.kind(at: top) == .text { text.add(pieces.piece(at: top, in: doc)) }
        var n = doc.nextInTree(after: top, within: top)
        while n >= 0 {
            defer { n = doc.nextInTree(after: n, within: top) }
            let kind = doc.kind(at: n)
            if kind == .text {
                text.add(pieces.piece(at: n, in: doc))
                continue
            }
            guard kind == .element else { continue }
            let name = doc.nameID(at: n)
            guard CleanCensus.counted.contains(name) else { continue }
            switch name {
            case TagID.ul, TagID.ol:
                lists.append(n)
                densityNodes.append(n)
            case TagID.table:
                tables.append(n)
                densityNodes.append(n)
            case TagID.p:
                p += 1
                densityNodes.append(n)
            case TagID.img:
                img += 1
                densityNodes.append(n)
            case TagID.li:
                li += 1
                densityNodes.append(n)
            case TagID.input: input += 1
            case TagID.a: links.append(n)
            default:
                if CleanCensus.headingTags.contains(name) {
                    headings.append(n)
                } else if CleanCensus.embedTags.contains(name) {
                    embeds.append(n)
                } else {
                    densityNodes.append(n)   // span, td, blockquote, dl, div, pre
                }
            }
        }
    }
}

extension Readability {
    /// `_getLinkDensity` over links already collected (indices in `element`'s document, in
    /// document order).
    func linkDensity(_ element: Node, links: [Int32]) -> Double {
        let textLength = innerTextLength(element)
        if textLength == 0 { return 0 }
        return weightedLinkLength(links, in: element.document) / Double(textLength)
    }

    /// Text inside `links`, summed in order; hash links count 0.3.
    func weightedLinkLength(_ links: [Int32], in document: Document) -> Double {
        var linkLength: Double = 0
        for link in links {
            let href = document.node(at: link).getAttribute("href")
            let coefficient = href.map(Matching.isHashURL) == true ? 0.3 : 1
            linkLength += Double(innerTextLength(at: link, in: document)) * coefficient
        }
        return linkLength
    }

    /// `_getTextDensity` over elements already collected (indices in `e`'s document).
    func textDensity(_ e: Node, of nodes: [Int32]) -> Double {
        let textLength = innerTextLength(e)
        if textLength == 0 { return 0 }
        var childrenLength = 0
        for child in nodes { childrenLength += innerTextLength(at: child, in: e.document) }
        return Double(childrenLength) / Double(textLength)
    }
}
