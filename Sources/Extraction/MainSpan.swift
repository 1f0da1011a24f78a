// The main-text span of a container: where its prose lives, and what lies before and after it.
// Prose is text outside links and furniture-named boxes, in runs long enough to be sentences. From the container down, the
// span follows the one child box that holds most of the prose; the boxes beside that path are
// leading (before it: breadcrumbs, headline, byline and date lines) or trailing (after it:
// author bios, sign-up boxes, teaser grids), and so are the children of the innermost box
// before its first and after its last paragraph of substantial prose. The classifier is
// stricter outside the span. The prose under each element is counted in the text table's walk
// (`TextTable.ProseRule`), not in a walk of its own.
import HTML

struct MainSpan {
    enum Region { case inside, leading, trailing }

    /// The roots of the boxes beside the path to the span, with their side, by node index
    /// (0 none, 1 leading, 2 trailing).
    private var outside: [UInt8] = []
    /// Prose (non-space bytes) under each element, by node index; the container's total.
    private var prose: [Int32] = []
    private(set) var total = 0
    /// The innermost box of the path (nil: too little prose to follow).
    private(set) var innermost: Node?

    /// Boxes the span may descend into: paragraphs and lists are the text itself.
    static let boxes = NameSet(["div", "section", "article", "main", "table", "tbody", "tr", "td", "center", "font", "span"])
    static let anchor = Document.knownNameID("a")!
    static let header = Document.knownNameID("header")!

    /// The span of `root` from `table`'s prose (a table made with a prose rule).
    init(root: Node, table: TextTable, tuning: Tuning) {
        let order = table.order
        guard order.count > 1 else { return }
        prose = table.prose
        total = Int(prose[Int(root.index)])
        let total = Double(self.total)
        guard total >= Double(tuning.spanMinimum) else { return }
        outside = Array(repeating: 0, count: root.document.indexLimit)
        var node = root
        while true {
            var carrier: Node?
            var child = node.firstChild
            while let c = child {
                if c.isElement, Double(prose(c)) >= tuning.carrierShare * total { carrier = c; break }
                child = c.nextSibling
            }
            guard let next = carrier, MainSpan.boxes.contains(next) else { break }
            var region = Region.leading
            child = node.firstChild
            while let c = child {
                if c == next { region = .trailing } else if c.isElement { mark(c, region) }
                child = c.nextSibling
            }
            node = next
        }
        innermost = node
        // Inside the innermost box, the span runs from its first to its last child of
        // substantial prose; the children before and after it are leading and trailing.
        let substantial = max(tuning.substantialShare * total, tuning.substantialMinimum)
        var children: [Node] = []
        var child = node.firstChild
        while let c = child {
            if c.isElement { children.append(c) }
            child = c.nextSibling
        }
        // A page header's standfirst is leading matter, not the start of the text.
        let isText = { (c: Node) in Double(prose(c)) >= substantial && c.localNameID != MainSpan.header }
        guard let first = children.firstIndex(where: isText), let last = children.lastIndex(where: isText) else { return }
        for c in children[..<first] { mark(c, .leading) }
        for c in children[(last + 1)...] { mark(c, .trailing) }
    }

    /// The prose under `node` (0 for nodes the table does not hold).
    private func prose(_ node: Node) -> Int32 {
        let i = Int(node.index)
        return i < prose.count ? prose[i] : 0
    }

    private mutating func mark(_ node: Node, _ region: Region) {
        outside[Int(node.index)] = region == .leading ? 1 : region == .trailing ? 2 : 0
    }


    /// The share of the container's prose under `node`.
    func proseShare(_ node: Node) -> Double {
        total > 0 ? Double(prose(node)) / Double(total) : 0
    }

    /// Whether `node` is one of the boxes beside the span (not a box inside one).
    func isBeside(_ node: Node) -> Bool {
        let i = Int(node.index)
        return i < outside.count && outside[i] != 0
    }

    /// The region of `node` given its parent's.
    func region(of node: Node, parent: Region) -> Region {
        guard parent == .inside else { return parent }
        let i = Int(node.index)
        switch i < outside.count ? outside[i] : 0 {
        case 1: return .leading
        case 2: return .trailing
        default: return .inside
        }
    }
}
