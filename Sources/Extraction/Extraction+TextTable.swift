// Text and link-text lengths of every node of a subtree, from one walk summed from the leaves
// up, so the stages that weigh nodes (the survey, the classifier) never re-walk a subtree.
// Lengths count non-space UTF-8 bytes; only their ratios and rough sizes matter.
import HTML

struct TextTable {
    /// By node index; nodes outside the subtree (and skipped ones) are 0.
    private var text: [Int32]
    private var links: [Int32]
    /// The subtree's elements in document order, the root first, skipped subtrees left out.
    private(set) var elements: [Node] = []

    /// Never text: their subtrees are not counted.
    static let skipped = NameSet(["script", "style", "template", "svg", "head", "title", "math"])
    static let anchor = Document.knownNameID("a")

    init(_ root: Node) {
        text = Array(repeating: 0, count: root.document.indexLimit)
        links = text
        var order: [Node] = []
        var stack: [Node] = [root]
        while let node = stack.popLast() {
            order.append(node)
            if node.isText {
                text[Int(node.index)] = Int32(TextTable.nonSpaceCount(node.data))
                continue
            }
            guard node.isElement || node == root, node == root || !TextTable.skipped.contains(node) else { continue }
            elements.append(node)
            var child = node.lastChild
            while let c = child {
                if c.isText || c.isElement { stack.append(c) }
                child = c.previousSibling
            }
        }
        for node in order.reversed() {
            let i = Int(node.index)
            if node.localNameID == TextTable.anchor { links[i] = text[i] }
            if node != root, let parent = node.parent {
                text[Int(parent.index)] += text[i]
                links[Int(parent.index)] += links[i]
            }
        }
    }

    /// The bytes of `s` above 0x20, counted over its contiguous UTF-8 (a String's UTF-8 view
    /// checks every index it steps over).
    @inline(__always)
    static func nonSpaceCount(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { bytes in
            var n = 0
            for b in bytes where b > 0x20 { n += 1 }
            return n
        }
    }

    func length(_ node: Node) -> Int {
        let i = Int(node.index)
        return i < text.count ? Int(text[i]) : 0
    }

    func linkLength(_ node: Node) -> Int {
        let i = Int(node.index)
        return i < links.count ? Int(links[i]) : 0
    }

    func linkDensity(_ node: Node) -> Double {
        let t = length(node)
        return t > 0 ? Double(linkLength(node)) / Double(t) : 0
    }
}
