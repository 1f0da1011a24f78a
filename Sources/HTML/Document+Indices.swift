// Index-level reads for hot walks in other modules (the extraction's text tables): a walk that
// holds its document once and steps by index takes no reference count per visited node, as a
// walk over `Node` handles does (each handle holds its document).

extension Document {
    /// The kind of node `index`.
    @inlinable public func kind(at index: Int32) -> NodeKind { nodes[Int(index)].kind }

    /// The local name id of element `index` (`Node.localNameID`); -1 for other kinds.
    @inlinable public func nameID(at index: Int32) -> Int32 {
        let r = nodes[Int(index)]
        return r.kind == .element ? r.name : -1
    }

    /// The namespace of element `index` (`Node.namespace`).
    @inlinable public func namespace(at index: Int32) -> Namespace { nodes[Int(index)].namespace }

    /// Node `index`'s first child, or -1.
    @inlinable public func firstChild(at index: Int32) -> Int32 { nodes[Int(index)].firstChild }

    /// Node `index`'s last child, or -1.
    @inlinable public func lastChild(at index: Int32) -> Int32 { nodes[Int(index)].lastChild }

    /// The sibling after node `index`, or -1.
    @inlinable public func nextSibling(at index: Int32) -> Int32 { nodes[Int(index)].next }

    /// The sibling before node `index`, or -1.
    @inlinable public func previousSibling(at index: Int32) -> Int32 { nodes[Int(index)].previous }

    /// True when node `index` is an element with attributes.
    @inlinable public func hasAttributes(at index: Int32) -> Bool {
        let r = nodes[Int(index)]
        return r.kind == .element && r.payload >= 0 && !attributeLists[Int(r.payload)].isEmpty
    }

    /// Element `index`'s attributes (`Node.attributes`; empty for other kinds).
    @inlinable public func attributes(at index: Int32) -> [Attribute] {
        let r = nodes[Int(index)]
        guard r.kind == .element, r.payload >= 0 else { return [] }
        return attributeLists[Int(r.payload)]
    }

    /// Calls `body` with element `index`'s attributes read in place (empty for other kinds):
    /// no copy of the list, and no reference count per attribute.
    @inlinable public func withAttributes<R>(at index: Int32, _ body: (UnsafeBufferPointer<Attribute>) throws -> R) rethrows -> R {
        let r = nodes[Int(index)]
        guard r.kind == .element, r.payload >= 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try attributeLists[Int(r.payload)].withUnsafeBufferPointer(body)
    }

    /// The next element after element `index` in tree order (its first element child unless
    /// `skippingChildren`, else the next element sibling of it or of its nearest ancestor that
    /// has one), or -1: Readability's `_getNextNode` by index.
    @inlinable public func nextElement(after index: Int32, skippingChildren: Bool = false) -> Int32 {
        if !skippingChildren {
            var c = nodes[Int(index)].firstChild
            while c >= 0 && nodes[Int(c)].kind != .element { c = nodes[Int(c)].next }
            if c >= 0 { return c }
        }
        var current = index
        while current >= 0 {
            var c = nodes[Int(current)].next
            while c >= 0 && nodes[Int(c)].kind != .element { c = nodes[Int(c)].next }
            if c >= 0 { return c }
            current = nodes[Int(current)].parent
        }
        return -1
    }

    /// Node `index`'s parent, or -1.
    @inlinable public func parent(at index: Int32) -> Int32 { nodes[Int(index)].parent }

    /// The node after `index` in tree order, inside the subtree of `root` (not `root` itself
    /// when `index` is `root`'s last descendant), or -1: `Node.descendants` by index.
    @inlinable public func nextInTree(after index: Int32, within root: Int32) -> Int32 {
        following(index, within: root)
    }

    /// The node after `index`'s subtree in tree order, inside the subtree of `root`, or -1.
    @inlinable public func nextInTree(skipping index: Int32, within root: Int32) -> Int32 {
        index == root ? -1 : followingSkippingChildren(index, within: root)
    }

    /// The data of text node `index` (`Node.data`).
    @inlinable public func text(at index: Int32) -> String { characterData(index) }

    /// Calls `body` with the UTF-8 of text or comment node `index`'s data, read in place
    /// (`text(at:)` without a `String` handed over). `body` must not change the document.
    /// A raw text not read yet (a script's, a style's) is read as its bytes, without making
    /// and keeping its string.
    @inlinable public func withTextUTF8<R>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let r = nodes[Int(index)]
        if r.name < -1 { return rawTexts[Int(-2 - r.name)].withUnsafeBufferPointer(body) }
        if let answer = strings[Int(r.payload)].utf8.withContiguousStorageIfAvailable(body) {
            return answer
        }
        var s = characterData(index)
        return s.withUTF8(body)
    }

    /// A handle to node `index`.
    @inlinable public func node(at index: Int32) -> Node {
        precondition(index >= 0 && Int(index) < nodes.count, "no node at this index")
        return Node(self, index)
    }
}
