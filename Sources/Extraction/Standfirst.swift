// The standfirst: the few sentences under a headline that sum the article up, named so by the
// page ("lead", "intro", "deck", "standfirst", "summary", "excerpt", "abstract", "subtitle").
// Pages put it in the article's header beside the headline, where Readability's candidate (the
// body's paragraphs) does not reach. It is found before Readability changes the page, and put
// back before the text when the paragraph of prose that follows it is in Readability's
// container and its own words are not.
import HTML

struct Standfirst {
    /// Its text, whitespace runs collapsed.
    let text: String
    /// The first paragraph of prose after it in the page: where the article's text goes on.
    let next: Node

    /// Class and id tokens naming a standfirst, matched whole ("leading-tight" is no lead).
    static let names: [[UInt8]] = ["standfirst", "subtitle", "subheadline", "excerpt", "abstract", "summary",
                                   "intro", "lead", "dek", "deck"].map { Array($0.utf8) }
    static let boxes = NameSet(["p", "div", "h2", "h3", "h4", "span", "section", "header"])
    static let frames = NameSet(["header", "article"])
    static let paragraph = Document.knownNameID("p")!

    /// The page's standfirsts in document order (a few at most), read before Readability runs:
    /// named boxes of a sentence or a few with hardly any links, inside a `header` or an
    /// `article` (a lead in a page's teaser grid or a service page's banner is no article's).
    /// A standfirst's text bytes (outside whitespace), links, next paragraph and count per page
    /// are `tuning`'s (`standfirstLengths`, `standfirstLinkDensity`, `standfirstNext` within
    /// `standfirstLookahead` elements, `standfirstsPerPage`).
    static func find(in table: TextTable, body: Node, _ tuning: Tuning) -> [Standfirst] {
        var found: [Standfirst] = []
        let elements = table.elements
        let doc = body.document
        // Names by index: a handle is made only for the boxes.
        for (i, index) in table.order.enumerated() where boxes.contains(id: doc.nameID(at: index)) {
            // The length first, by index: most boxes are passed over before a handle is made
            // or their attributes are read.
            let length = Int(table.length(at: index))
            guard tuning.standfirstLengths.contains(length), table.linkDensity(at: index) <= tuning.standfirstLinkDensity else { continue }
            let e = elements[i]
            guard followsHeadline(e, table: table) || (!e.attributes.isEmpty && isNamed(e) && isFramed(e, below: body)) else { continue }
            guard let next = nextParagraph(after: i, in: elements, table: table, tuning) else { continue }
            found.append(Standfirst(text: collapsed(e.textContent), next: next))
            if found.count == tuning.standfirstsPerPage { break }
        }
        return found
    }

    /// A subheading or paragraph that comes right after the page's headline (the `h1`, with
    /// nothing but empty elements between): the deck, whatever its name (trafilatura-eval
    /// 0.9321 → 0.9336, 7 pages up, none down; wcxb-dev 0.87101 → 0.87104, whose annotators keep
    /// some decks and leave others out). A division there that ends no sentence is the byline.
    static func followsHeadline(_ e: Node, table: TextTable) -> Bool {
        let division = e.localNameID == Self.division
        guard division || decks.contains(e) else { return false }
        var p = e.previousElementSibling
        while let q = p, q.localNameID != headline, table.length(q) == 0 { p = q.previousElementSibling }
        guard p?.localNameID == headline else { return false }
        // A division there is often the byline and date; a deck ends a sentence.
        return !division || BlockText.endsSentence(Substring(collapsed(e.textContent)))
    }
    static let decks = NameSet(["p", "h2", "h3"])
    static let division = Document.knownNameID("div")!
    static let headline = Document.knownNameID("h1")!

    static func isNamed(_ e: Node) -> Bool {
        Vocabulary.Names(e).hasToken(in: Standfirst.names)
    }

    static func isFramed(_ e: Node, below body: Node) -> Bool {
        frames.containsAncestor(of: e, below: body)
    }

    /// The first paragraph of prose after `elements[i]`, outside it.
    static func nextParagraph(after i: Int, in elements: TextTable.Elements, table: TextTable, _ tuning: Tuning) -> Node? {
        let box = elements[i]
        for m in elements[(i + 1)..<min(elements.count, i + 1 + tuning.standfirstLookahead)] where m.localNameID == paragraph {
            if table.length(m) >= tuning.standfirstNext && !box.contains(m) { return m }
        }
        return nil
    }

    /// The standfirst to put before the text of `root` (Readability's container, cleaned, whose
    /// text is `text`): the first whose next paragraph is in it and whose opening words are not.
    static func missing(from root: Node, text: String, among standfirsts: [Standfirst], _ tuning: Tuning) -> Standfirst? {
        let candidates = standfirsts.filter { root.contains($0.next) }
        if candidates.isEmpty { return nil }
        let body = collapsedBytes(text)
        return candidates.first { s in
            let opening = Array(s.text.utf8.prefix(tuning.standfirstOpening))
            return !opening.isEmpty && !Vocabulary.contains(body, opening)
        }
    }

    /// Puts the standfirst at the start of `root` as a paragraph.
    func insert(into root: Node) {
        let p = root.document.createElement("p")
        _ = p.appendChild(root.document.createTextNode(text))
        _ = root.insertBefore(p, root.firstChild)
    }

    /// Whitespace runs (ASCII) as one space, trimmed.
    static func collapsed(_ s: String) -> String {
        String(decoding: collapsedBytes(s), as: UTF8.self)
    }

    /// `collapsed` as UTF-8 bytes, in one pass over them (an article's text is tens of
    /// kilobytes; splitting it into Characters would cost more than the rest of this stage).
    static func collapsedBytes(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var pendingSpace = false
        for b in s.utf8 {
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(b)
            }
        }
        return out
    }
}
