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

    /// Node `index`'s parent, or -1.
    @inlinable public func parent(at index: Int32) -> Int32 { nodes[Int(index)].parent }

    /// The node after `index` in tree order, inside the subtree of `root` (not `root` itself
    /// when `index` is `root`'s last descendant), or -1: `Node.descendants` by index.
    @inlinable public func nextInTree(after index: Int32, within root: Int32) -> Int32 {
        following(index, within: root)
    }

    /// The data of text node `index` (`Node.data`).
    @inlinable public func text(at index: Int32) -> String { characterData(index) }

    /// A handle to node `index`.
    @inlinable public func node(at index: Int32) -> Node {
        precondition(index >= 0 && Int(index) < nodes.count, "no node at this index")
        return Node(self, index)
    }
}
