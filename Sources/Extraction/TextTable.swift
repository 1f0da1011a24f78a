// Text and link-text lengths of every node of a subtree, from one walk summed from the leaves
// up, so the stages that weigh nodes (the survey, the classifier) never re-walk a subtree.
// Lengths count non-space UTF-8 bytes; only their ratios and rough sizes matter.
import HTML

struct TextTable {
    /// By node index; nodes outside the subtree (and skipped ones) are 0.
    private var text: [Int32]
    private var links: [Int32]
    /// With `masses`: the text inside the skipped subtrees under each element (empty without).
    private var hidden: [Int32] = []
    /// With a prose rule: the prose under each element (`MainSpan`'s measure), from the same
    /// walk (empty without).
    private(set) var prose: [Int32] = []

    /// What counts as prose for `MainSpan`: text runs of sentence length outside links;
    /// `furniture`: elements whose prose is not counted (the survey's navigation, headers,
    /// footers and asides around a whole page); `names`: whether boxes named as furniture hold
    /// no prose (false for a container already cleaned, where the classifier kept such a box
    /// for its share); `run`: text runs shorter than this (non-space bytes) are labels, not
    /// prose (`Tuning.proseRun`).
    struct ProseRule {
        var furniture: NameSet? = nil
        var names = true
        var run: Int
    }
    /// The subtree's elements in document order, the root first, skipped subtrees left out.
    var elements: Elements { Elements(document: document, order: order) }
    /// Their indices.
    private(set) var order: [Int32] = []
    let document: Document

    /// Handles made as they are read: most stages read a few, or only indices.
    struct Elements: RandomAccessCollection {
        let document: Document
        let order: [Int32]
        var startIndex: Int { 0 }
        var endIndex: Int { order.count }
        subscript(position: Int) -> Node { document.node(at: order[position]) }
    }

    /// Never text: their subtrees are not counted.
    static let skipped = NameSet(["script", "style", "template", "svg", "head", "title", "math"])
    static let anchor = Document.knownNameID("a")

    /// `masses`: also count the text of the skipped subtrees, for `mass` (what
    /// `TextMass.length` counts, from this one walk).
    init(_ root: Node, masses: Bool = false, prose rule: ProseRule? = nil) {
        let doc = root.document
        document = doc
        text = Array(repeating: 0, count: doc.indexLimit)
        links = text
        if masses { hidden = text }
        if rule != nil { prose = text }
        if root.isText {
            text[Int(root.index)] = Int32(TextTable.nonSpaceCount(root.data))
            return
        }
        // The counted elements in document order (the root always), then summed from the last
        // up: an element's children are all later in that order, so each is done before it.
        // The walk steps by index (no handle, so no reference count, per node visited).
        var order: [Int32] = []
        defer { self.order = order }
        // A text child is counted when its parent is entered: each node's record is read once
        // in the walk, and once more only for an element, to add it to its parent.
        let skipped = TextTable.skipped, unread = TextMass.unread
        var stack: [Int32] = [root.index]
        let proseRun = Int32(clamping: rule?.run ?? 0)
        while let i = stack.popLast() {
            order.append(i)
            var own: Int32 = 0
            // The element's own runs of sentence length (children's prose is added below).
            var ownProse: Int32 = 0
            var c = doc.lastChild(at: i)
            while c >= 0 {
                switch doc.kind(at: c) {
                case .element:
                    if !skipped.contains(id: doc.nameID(at: c)) {
                        stack.append(c)
                    } else if masses, !unread.contains(id: doc.nameID(at: c)) {
                        // The skipped element's own count too: it may be asked for (removed).
                        let m = Int32(TextMass.length(at: c, in: doc))
                        hidden[Int(c)] = m
                        hidden[Int(i)] += m
                    }
                case .text:
                    let n = Int32(doc.withTextUTF8(at: c) { TextTable.nonSpaceCount($0) })
                    text[Int(c)] = n
                    own += n
                    if n >= proseRun { ownProse += n }
                default:
                    // A skipped element and anything else (a comment) count 0.
                    break
                }
                c = doc.previousSibling(at: c)
            }
            text[Int(i)] = own
            if rule != nil { prose[Int(i)] = ownProse }
        }
        // An element's descendants are all later in `order`: from the last up, each element is
        // complete when it is added to its parent.
        let top = root.index
        let anchor = TextTable.anchor
        for i in order.reversed() {
            let k = Int(i)
            let name = doc.nameID(at: i)
            if name == anchor { links[k] = text[k] }
            if let rule, prose[k] > 0, TextTable.holdsNoProse(i, name: name, in: doc, rule) { prose[k] = 0 }
            guard i != top else { continue }
            let p = Int(doc.parent(at: i))
            text[p] += text[k]
            links[p] += links[k]
            if masses { hidden[p] += hidden[k] }
            if rule != nil { prose[p] += prose[k] }
        }
    }

    /// Links, and boxes named as furniture (comments, related posts), hold no prose of the
    /// article's.
    private static func holdsNoProse(_ index: Int32, name: Int32, in doc: Document, _ rule: ProseRule) -> Bool {
        if name == anchor { return true }
        if let furniture = rule.furniture, furniture.contains(id: name) { return true }
        guard rule.names, doc.hasAttributes(at: index) else { return false }
        return doc.withAttributes(at: index) { list in
            let attributes = ReadAttributes(list)
            let names = Vocabulary.Names(className: attributes.className, id: attributes.id)
            return names.matches(Vocabulary.boilerplateWords) && !names.namesContent()
        }
    }

    /// The bytes of `s` above 0x20, counted over its contiguous UTF-8 (a String's UTF-8 view
    /// checks every index it steps over).
    @inline(__always)
    static func nonSpaceCount(_ s: String) -> Int {
        // In place where the string is contiguous (always, for the parser's strings): a copy
        // for `withUTF8` would cost a reference count.
        if let n = s.utf8.withContiguousStorageIfAvailable({ nonSpaceCount($0) }) { return n }
        var s = s
        return s.withUTF8 { nonSpaceCount($0) }
    }

    /// The bytes above 0x20, eight at a time: a byte's high bit is set after the step when it
    /// is 0x80 or more, or when its low seven bits plus 0x5F reach 0x80 (0x21 and up). The sum
    /// never carries into the next byte (0x7F + 0x5F = 0xDE).
    static func nonSpaceCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0, i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let high = (((w & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x5F5F_5F5F_5F5F_5F5F) | w) & 0x8080_8080_8080_8080
            count += high.nonzeroBitCount
            i += 8
        }
        while i < n {
            if base[i] > 0x20 { count += 1 }
            i += 1
        }
        return count
    }

    func length(_ node: Node) -> Int {
        let i = Int(node.index)
        return i < text.count ? Int(text[i]) : 0
    }

    /// `length` of the node at `index`.
    func length(at index: Int32) -> Int32 {
        let i = Int(index)
        return i < text.count ? text[i] : 0
    }

    /// All the text under `node`, the skipped subtrees' too: `TextMass.length(node)` as the
    /// subtree was when the table was made (a table made with `masses`).
    func mass(_ node: Node) -> Int {
        let i = Int(node.index)
        return i < text.count ? Int(text[i]) + Int(hidden[i]) : 0
    }

    func linkLength(_ node: Node) -> Int {
        let i = Int(node.index)
        return i < links.count ? Int(links[i]) : 0
    }

    func linkDensity(_ node: Node) -> Double {
        linkDensity(at: node.index)
    }

    /// `linkDensity` of the node at `index`.
    func linkDensity(at index: Int32) -> Double {
        let i = Int(index)
        guard i < text.count, text[i] > 0 else { return 0 }
        return Double(links[i]) / Double(text[i])
    }
}
