// NameSet: tag-name sets as bitmaps over the parser's interned name numbers.
import HTML

/// Tag-name sets as the parser's name numbers: a bit per known name, so a test is one load.
struct NameSet {
    private let bits: [UInt64]

    init(_ names: [String]) {
        let ids = names.compactMap { Document.knownNameID($0) }
        var bits = [UInt64](repeating: 0, count: Int((ids.max() ?? 0) / 64) + 1)
        for id in ids { bits[Int(id) / 64] |= 1 << UInt64(id % 64) }
        self.bits = bits
    }

    @inline(__always)
    func contains(_ node: Node) -> Bool { contains(id: node.localNameID) }

    /// Whether an ancestor of `node` below `root` (neither counted) has one of these names.
    func containsAncestor(of node: Node, below root: Node) -> Bool {
        var n = node.parent
        while let a = n, a != root {
            if contains(a) { return true }
            n = a.parent
        }
        return false
    }

    @inline(__always)
    func contains(id: Int32) -> Bool {
        guard id >= 0 else { return false }
        let word = Int(id) >> 6
        return word < bits.count && bits[word] & (1 << UInt64(id & 63)) != 0
    }
}
