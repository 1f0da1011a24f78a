// Tree mutation with DOM semantics: inserting a node that has a parent first removes it
// from there; inserting a document fragment moves its children.

extension Node {
    /// Appends `child` as the last child (moving it from where it was) and returns it.
    @discardableResult
    public func appendChild(_ child: Node) -> Node {
        insertBefore(child, nil)
    }

    /// Inserts `child` before `reference` (at the end when nil), moving it from where it was;
    /// returns it.
    @discardableResult
    public func insertBefore(_ child: Node, _ reference: Node?) -> Node {
        precondition(child.document === document, "nodes belong to one document; import them first")
        precondition(!child.contains(self), "a node cannot be inserted into itself or its descendants")
        var ref = reference?.index ?? -1
        if ref >= 0 {
            // A snapshot's node has the same index as the original's: checking the document
            // too keeps one from passing for the other.
            precondition(reference!.document === document && document.nodes[Int(ref)].parent == index,
                         "the reference node is not a child of this node")
        }
        if ref == child.index { ref = document.nodes[Int(ref)].next }
        if child.kind == .documentFragment {
            var c = child.record.firstChild
            while c >= 0 {
                let next = document.nodes[Int(c)].next
                document.unlink(c)
                document.link(c, into: index, before: ref)
                c = next
            }
            return child
        }
        document.unlink(child.index)
        document.link(child.index, into: index, before: ref)
        return child
    }

    /// Detaches `child` from this node and returns it (it stays owned by the document).
    @discardableResult
    public func removeChild(_ child: Node) -> Node {
        precondition(child.document === document && child.record.parent == index, "the node to remove is not a child of this node")
        document.unlink(child.index)
        return child
    }

    /// Puts `newChild` where `oldChild` is and detaches `oldChild`; returns `oldChild`.
    @discardableResult
    public func replaceChild(_ newChild: Node, _ oldChild: Node) -> Node {
        precondition(oldChild.document === document && oldChild.record.parent == index, "the node to replace is not a child of this node")
        if newChild == oldChild { return oldChild }
        insertBefore(newChild, oldChild)
        document.unlink(oldChild.index)
        return oldChild
    }

    /// Detaches this node from its parent, if any.
    public func remove() {
        document.unlink(index)
    }

    /// Renames an element in place, keeping its children, attributes and position.
    /// (Readability's `_setNodeTag`.) Returns the same node.
    @discardableResult
    public func rename(to localName: String) -> Node {
        guard isElement else { return self }
        let name = namespace == .html ? asciiLowercased(localName) : localName
        let id = document.intern(name)
        document.noteElementName(id)
        document.nodes[Int(index)].name = id
        if id == Tag.template && namespace == .html && document.templateContents[index] == nil {
            document.templateContents[index] = document.newNode(.documentFragment)
        }
        return self
    }

    /// A copy of this node (and, when `deep`, its subtree and template contents), detached.
    public func cloneNode(deep: Bool) -> Node {
        Node(document, document.copyTree(from: document, root: index, deep: deep))
    }
}

extension Document {
    /// A copy of `node` of another document (or of this one) owned by this document, detached;
    /// with its subtree and template contents when `deep`. (DOM `importNode`.)
    public func importNode(_ node: Node, deep: Bool = true) -> Node {
        Node(self, copyTree(from: node.document, root: node.index, deep: deep))
    }

    /// Copies `root` (from `source`, which may be this document) into this document, iteratively.
    /// Returns the copy's index; the copy is detached.
    func copyTree(from source: Document, root: Int32, deep: Bool) -> Int32 {
        if deep {
            // One walk counts the subtree, so the arenas grow once instead of doubling mid-copy.
            var count = 1, texts = 0
            var c = source.following(root, within: root)
            while c >= 0 {
                count += 1
                let kind = source.nodes[Int(c)].kind
                if kind == .text || kind == .comment { texts += 1 }
                c = source.following(c, within: root)
            }
            nodes.reserveCapacity(nodes.count + count)
            strings.reserveCapacity(strings.count + texts)
        }
        let rootCopy = copyOne(from: source, root)
        guard deep else { return rootCopy }
        // Work list of (source node, destination parent); children pushed in reverse order so
        // they are appended in order.
        var work: [(Int32, Int32)] = []
        func pushChildren(of src: Int32, into dst: Int32) {
            // Only template elements have contents: test the record before hashing a lookup.
            let record = source.nodes[Int(src)]
            if record.name == Tag.template && record.kind == .element && record.namespace == .html,
               let content = source.templateContents[src], let dstContent = templateContents[dst] {
                var c = source.nodes[Int(content)].lastChild
                while c >= 0 { work.append((c, dstContent)); c = source.nodes[Int(c)].previous }
            }
            var c = source.nodes[Int(src)].lastChild
            while c >= 0 { work.append((c, dst)); c = source.nodes[Int(c)].previous }
        }
        pushChildren(of: root, into: rootCopy)
        while let (src, dstParent) = work.popLast() {
            let copy = copyOne(from: source, src)
            link(copy, appendTo: dstParent)
            pushChildren(of: src, into: copy)
        }
        return rootCopy
    }

    private func copyOne(from source: Document, _ index: Int32) -> Int32 {
        let r = source.nodes[Int(index)]
        switch r.kind {
        case .element:
            // Names HTML knows have the same number in every document.
            let name = source === self || r.name < TagNames.knownCount ? r.name : intern(source.nameString(r.name))
            let attributes = r.payload >= 0 ? source.attributeLists[Int(r.payload)] : []
            return newElement(name, r.namespace, attributes)
        case .text where r.name < -1:
            return newRawText(source.rawTexts[Int(-2 - r.name)])
        case .text, .comment:
            return newCharacterData(r.kind, source.strings[Int(r.payload)])
        case .doctype:
            return newDoctype(source.doctypes[Int(r.payload)])
        case .documentFragment, .document:
            return newNode(.documentFragment)
        }
    }
}
