// A listing's heading and introduction: a category or collection page puts its `h1` and a
// paragraph or two about what it lists just above the grid of cards, in a box of its own
// beside the grid. The repeat or listing chosen holds the cards only; the nearest box around
// it (four levels up at most, below the body) that also holds an `h1` before the cards, with
// at most 2,000 bytes of text before them, is the listing with its heading, cut after the
// cards (pagination, a column's footer) and cleaned the same way. Not for threads: a post's
// header and the topic's furniture are no introduction.
import HTML

extension Alternative {
    /// The nearest ancestor of the repeat's parent (below the body) holding an `h1` before the
    /// cards, with little text before them: an alternative of the same kind whose items are
    /// the same nodes. Nil when there is none.
    func withIntro() -> Alternative? {
        guard kind == .repeated || kind == .listing else { return nil }
        var before = 0
        var depth = 0
        var child = source
        while let e = child.parent, e.isElement, depth < tuning.introDepth,
              e.localNameID != Survey.bodyElement, e.localNameID != Survey.htmlElement {
            var previous = child.previousSibling
            while let p = previous {
                if p.isText {
                    before += TextTable.nonSpaceCount(p.data)
                } else if p.isElement, !Alternative.unread.contains(p) {
                    before += TextMass.length(p)
                }
                previous = p.previousSibling
            }
            if before > tuning.introLength { return nil }
            if Alternative.firstHeading(in: e, before: source) != nil {
                return Alternative(kind: kind, source: e, document: document, sourceItems: sourceItems, cards: source, tuning: tuning)
            }
            depth += 1
            child = e
        }
        return nil
    }

    static let h1 = Document.knownNameID("h1")!
    static let unread = NameSet(["script", "style", "template", "noscript"])

    /// Removes what follows the cards' box in the copy (pagination, a footer of the column,
    /// related threads): the heading and introduction before it are what the box adds.
    func trimAfterCards() {
        guard let cards, let path = Alternative.path(from: source, to: cards), var n = Alternative.follow(path, from: copy) else { return }
        while n != copy, let parent = n.parent {
            while let next = n.nextSibling { next.remove() }
            n = parent
        }
    }

    /// The first `h1` under `root` that comes before `stop` in document order (not inside it).
    static func firstHeading(in root: Node, before stop: Node) -> Node? {
        for n in root.descendants where n.isElement {
            if n == stop { return nil }
            if n.localNameID == h1, !n.textContent.allSatisfy(\.isWhitespace) { return n }
        }
        return nil
    }
}
