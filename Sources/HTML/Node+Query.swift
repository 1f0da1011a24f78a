// Fast descendant queries over the arena: no handle per visited node, names compared as ids.

extension Node {
    /// Descendant elements (not this node) whose local name is one of `names`, in any
    /// namespace, in document order: `getElementsByTagName` for lowercase names.
    public func descendantElements(named names: [String]) -> [Node] {
        var out: [Node] = []
        forEachDescendantElement(named: names) { out.append(Node(document, $0)) }
        return out
    }

    /// How many descendant elements `descendantElements(named:)` would return.
    public func countDescendantElements(named names: [String]) -> Int {
        var count = 0
        forEachDescendantElement(named: names) { _ in count += 1 }
        return count
    }

    /// Calls `body` with the data of every descendant text node, in document order (the pieces
    /// of `textContent`, without joining them).
    public func forEachDescendantText(_ body: (String) -> Void) {
        let doc = document
        var c = doc.following(index, within: index)
        while c >= 0 {
            let r = doc.nodes[Int(c)]
            if r.kind == .text { body(doc.characterData(c)) }
            c = doc.following(c, within: index)
        }
    }

    /// Calls `body` with every descendant text node, in document order.
    public func forEachDescendantTextNode(_ body: (Node) -> Void) {
        let doc = document
        var c = doc.following(index, within: index)
        while c >= 0 {
            if doc.nodes[Int(c)].kind == .text { body(Node(doc, c)) }
            c = doc.following(c, within: index)
        }
    }

    /// Calls `body` with the UTF-8 of every descendant text node's data, in document order:
    /// `forEachDescendantText` without a `String` handed over per node. `body` must not
    /// change the document.
    public func forEachDescendantTextUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = anyDescendantTextUTF8 { body($0); return false }
    }

    /// Whether `predicate` holds for the UTF-8 of some descendant text node's data, asking in
    /// document order and stopping at the first yes. `predicate` must not change the document.
    public func anyDescendantTextUTF8(_ predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let doc = document
        var found = false
        walkDescendants { i, r in
            guard r.kind == .text else { return true }
            if r.name < -1 {
                // A raw text not read yet: its bytes (valid UTF-8, what its string would hold),
                // without making and caching the string while the walk reads the arena.
                found = doc.rawTexts[Int(-2 - r.name)].withUnsafeBufferPointer(predicate)
            } else if let answer = doc.strings[Int(r.payload)].utf8.withContiguousStorageIfAvailable(predicate) {
                found = answer
            } else {
                var s = doc.characterData(i)
                found = s.withUTF8(predicate)
            }
            return !found
        }
        return found
    }

    /// `body` must not change the document (its callers only collect or count).
    private func forEachDescendantElement(named names: [String], _ body: (Int32) -> Void) {
        let doc = document
        var ids: [Int32] = []
        for name in names { if let id = doc.existingNameID(name), doc.mayHaveElements(named: id) { ids.append(id) } }
        guard !ids.isEmpty else { return }
        // One name (most searches) is one compare per element.
        let only = ids.count == 1 ? ids[0] : -1
        walkDescendants { i, r in
            if r.kind == .element && (only >= 0 ? r.name == only : ids.contains(r.name)) { body(i) }
            return true
        }
    }

    /// Every descendant in document order, with its record, read once per visit through the
    /// arena's buffer, until `visit` returns false. `visit` must not change the document.
    @inline(__always)
    private func walkDescendants(_ visit: (Int32, NodeRecord) -> Bool) {
        let root = index
        document.nodes.withUnsafeBufferPointer { nodes in
            var c = nodes[Int(root)].firstChild
            while c >= 0 {
                let r = nodes[Int(c)]
                if !visit(c, r) { return }
                if r.firstChild >= 0 {
                    c = r.firstChild
                    continue
                }
                // The next node after c's subtree, inside root's.
                var current = c, next = r.next
                c = -1
                while current != root {
                    if next >= 0 {
                        c = next
                        break
                    }
                    current = nodes[Int(current)].parent
                    if current < 0 { break }
                    next = nodes[Int(current)].next
                }
            }
        }
    }
}
