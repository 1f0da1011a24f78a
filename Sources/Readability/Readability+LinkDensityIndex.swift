// `_getLinkDensity` for every node of an unchanging tree at once. grabArticle asks it of each
// candidate, and candidates nest (a paragraph's parent, grandparent, …), so measuring each one
// from scratch scans the same text once per nesting level. One walk measures every subtree's
// normalised inner-text length bottom-up instead, and keeps the weighted length of each link in
// document order, so a candidate's density sums its links exactly as the per-node walk would.
import HTML

/// The normalised inner text of a run of text nodes, reduced to what joining runs needs.
struct TextSpan {
    /// UTF-16 length after trimming and collapsing each whitespace run to one space.
    var length = 0
    var hasContent = false
    /// Whitespace before the first content (for a run without content: any whitespace).
    var leadingSpace = false
    /// Whitespace after the last content (for a run without content: any whitespace).
    var trailingSpace = false

    /// This run followed by `next`: a whitespace run across the seam counts as one space.
    func followed(by next: TextSpan) -> TextSpan {
        guard hasContent else {
            return TextSpan(length: next.length, hasContent: next.hasContent, leadingSpace: leadingSpace || next.leadingSpace,
                            trailingSpace: next.hasContent ? next.trailingSpace : trailingSpace || next.trailingSpace)
        }
        guard next.hasContent else {
            return TextSpan(length: length, hasContent: true, leadingSpace: leadingSpace, trailingSpace: trailingSpace || next.leadingSpace)
        }
        return TextSpan(length: length + next.length + (trailingSpace || next.leadingSpace ? 1 : 0), hasContent: true,
                        leadingSpace: leadingSpace, trailingSpace: next.trailingSpace)
    }

    init(length: Int = 0, hasContent: Bool = false, leadingSpace: Bool = false, trailingSpace: Bool = false) {
        self.length = length
        self.hasContent = hasContent
        self.leadingSpace = leadingSpace
        self.trailingSpace = trailingSpace
    }

    /// The span of `text` on its own.
    init(text: String) { self.init(TextPiece(text: text)) }

    /// The span of one text node.
    init(_ piece: TextPiece) {
        self.init(length: Int(piece.normalizedLength), hasContent: piece.hasContent, leadingSpace: piece.leadingSpaces > 0,
                  trailingSpace: (piece.hasContent ? piece.trailingSpaces : piece.leadingSpaces) > 0)
    }
}

struct LinkDensityIndex {
    private var spans: [TextSpan]
    /// Pre-order position of each visited node, and the position just after its subtree.
    private var first: [Int32]
    private var end: [Int32]
    /// Links (`a` elements) in document order: position and weighted text length.
    private var linkPositions: [Int32] = []
    private var linkWeights: [Double] = []

    /// Measures every node under (and including) `root`. `isHashURL` decides a link's weight.
    init(root: Node, pieces: TextPieces = TextPieces()) {
        let doc = root.document
        let limit = doc.indexLimit
        spans = Array(repeating: TextSpan(), count: limit)
        first = Array(repeating: -1, count: limit)
        end = Array(repeating: -1, count: limit)
        var position: Int32 = 0
        // The slots of the links open around the walk (links nest, and close in reverse order).
        var openLinks: [Int] = []
        // The walk steps by index: a handle per visited node would cost a reference count each.
        let top = root.index
        var node = top
        while true {
            // Enter `node`.
            let i = Int(node)
            first[i] = position
            position += 1
            if doc.kind(at: node) == .text {
                spans[i] = TextSpan(pieces.piece(at: node, in: doc))
            } else if doc.nameID(at: node) == TagID.a {
                openLinks.append(linkPositions.count)
                linkPositions.append(first[i])
                linkWeights.append(0)
            }
            let child = doc.firstChild(at: node)
            if child >= 0 {
                node = child
                continue
            }
            // Leave `node` and every ancestor whose last child it closes.
            var current = node
            while true {
                finish(current, in: doc, position: position, openLinks: &openLinks)
                if current == top { return }
                let parent = doc.parent(at: current)
                guard parent >= 0 else { return }
                let p = Int(parent)
                spans[p] = spans[p].followed(by: spans[Int(current)])
                let sibling = doc.nextSibling(at: current)
                if sibling >= 0 {
                    node = sibling
                    break
                }
                current = parent
            }
        }
    }

    private mutating func finish(_ node: Int32, in doc: Document, position: Int32, openLinks: inout [Int]) {
        end[Int(node)] = position
        if doc.nameID(at: node) == TagID.a, let slot = openLinks.popLast() {
            let coefficient = doc.node(at: node).getAttribute("href").map(Matching.isHashURL) == true ? 0.3 : 1
            linkWeights[slot] = Double(spans[Int(node)].length) * coefficient
        }
    }

    /// `_getLinkDensity(node)`, or nil when the walk did not measure `node`.
    func linkDensity(_ node: Node) -> Double? {
        let i = Int(node.index)
        guard i < first.count, first[i] >= 0 else { return nil }
        let textLength = spans[i].length
        if textLength == 0 { return 0 }
        // The first link after `node` itself (a node is not its own descendant).
        var low = 0
        var high = linkPositions.count
        while low < high {
            let mid = (low + high) / 2
            if linkPositions[mid] <= first[i] { low = mid + 1 } else { high = mid }
        }
        var linkLength: Double = 0
        var k = low
        while k < linkPositions.count && linkPositions[k] < end[i] {
            linkLength += linkWeights[k]
            k += 1
        }
        return linkLength / Double(textLength)
    }
}
