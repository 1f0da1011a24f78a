// § 13.2.4.2 The stack of open elements as a value with a count per known HTML tag, so
// "is there a p / template / select on the stack?" is O(1) and scope checks on deep trees
// (100,000 nested divs) do not walk the whole stack for every start tag.

struct OpenElements: RandomAccessCollection {
    /// Unmanaged: the stack lives inside the `TreeBuilder`, which holds the document strongly.
    /// (A read through an unowned reference costs a retain and a release; through this, none.)
    private let document: Unmanaged<Document>
    private(set) var nodes: [Int32] = []
    /// Open HTML elements per known tag id.
    private var counts: [Int32]
    /// HTML `option` elements popped since the tree builder last took them (they owe the
    /// "maybe clone an option into selectedcontent" steps, § 4.10.10).
    private(set) var poppedOptions: [Int32] = []

    init(document: Document) {
        self.document = Unmanaged.passUnretained(document)
        counts = [Int32](repeating: 0, count: Int(TagNames.knownCount))
        nodes.reserveCapacity(64)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { nodes.count }

    subscript(i: Int) -> Int32 {
        get { nodes[i] }
        set {
            adjust(nodes[i], -1)
            nodes[i] = newValue
            adjust(newValue, 1)
        }
    }

    @inline(__always) private mutating func adjust(_ node: Int32, _ delta: Int32) {
        let r = record(node)
        if r.namespace == .html && r.name < TagNames.knownCount { counts[Int(r.name)] += delta }
    }

    @inline(__always) private func record(_ node: Int32) -> NodeRecord {
        document._withUnsafeGuaranteedRef { $0.nodes[Int(node)] }
    }

    /// Number of open HTML elements with the known tag id.
    func count(of tag: Int32) -> Int32 { tag >= 0 && tag < TagNames.knownCount ? counts[Int(tag)] : 1 }

    mutating func append(_ node: Int32) {
        adjust(node, 1)
        nodes.append(node)
    }

    @discardableResult
    mutating func removeLast() -> Int32 {
        let node = nodes.removeLast()
        adjust(node, -1)
        notePopped(node)
        return node
    }

    @inline(__always) private mutating func notePopped(_ node: Int32) {
        let r = record(node)
        if r.name == Tag.option && r.namespace == .html { poppedOptions.append(node) }
    }

    /// The options popped since the last call.
    mutating func takePoppedOptions() -> [Int32] {
        defer { poppedOptions.removeAll(keepingCapacity: true) }
        return poppedOptions
    }

    mutating func popLast() -> Int32? {
        guard !nodes.isEmpty else { return nil }
        return removeLast()
    }

    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        while nodes.count > range.lowerBound { removeLast() }
    }

    mutating func remove(at i: Int) {
        adjust(nodes[i], -1)
        notePopped(nodes[i])
        nodes.remove(at: i)
    }

    mutating func insert(_ node: Int32, at i: Int) {
        adjust(node, 1)
        nodes.insert(node, at: i)
    }

    mutating func removeAll() {
        while !nodes.isEmpty { removeLast() }
    }

    func lastIndex(of node: Int32) -> Int? { nodes.lastIndex(of: node) }
}
