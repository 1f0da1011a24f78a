// A node handle: (document, index). Cheap to copy; equality is same document and same index.

/// A handle to one node of a `Document`'s arena: the document and the node's index.
/// Cheap to copy; two handles are equal when they name the same node of the same document.
/// Not Sendable: it reaches into its document, which one thread uses at a time.
public struct Node: Hashable {
    /// Strong on purpose: a handle keeps its document alive, so `Document.parse(html).body`
    /// and other chains on a temporary document are safe. The arena holds no `Node`s, so
    /// there is no cycle, and the builder's hot paths use raw indices, not handles.
    public let document: Document
    /// The node's index in its document's arena (stable for the node's life).
    public let index: Int32

    @usableFromInline init(_ document: Document, _ index: Int32) {
        self.document = document
        self.index = index
    }

    /// The same node of the same document.
    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs.index == rhs.index && lhs.document === rhs.document
    }

    /// Hashes the document's identity and the node's index.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(document))
        hasher.combine(index)
    }

    @inlinable var record: NodeRecord { document.nodes[Int(index)] }

    @inlinable func handle(_ i: Int32) -> Node? { i >= 0 ? Node(document, i) : nil }

    // MARK: Kind and name

    /// The node's kind (element, text, comment, ...).
    @inlinable public var kind: NodeKind { record.kind }
    /// True for elements.
    @inlinable public var isElement: Bool { record.kind == .element }
    /// True for text nodes.
    @inlinable public var isText: Bool { record.kind == .text }
    /// The element's namespace (`.html` for other nodes).
    @inlinable public var namespace: Namespace { record.namespace }

    /// "div" (lowercase for HTML; SVG camelCase kept, e.g. "foreignObject"); "" for non-elements.
    public var localName: String {
        let r = record
        return r.kind == .element ? document.nameString(r.name) : ""
    }

    /// "DIV" for HTML elements, the local name for foreign ones; DOM nodeName-like for others.
    public var tagName: String {
        let r = record
        switch r.kind {
        case .element: return r.namespace == .html ? asciiUppercased(document.nameString(r.name)) : document.nameString(r.name)
        case .text: return "#text"
        case .comment: return "#comment"
        case .document: return "#document"
        case .documentFragment: return "#document-fragment"
        case .doctype: return document.doctypes[Int(r.payload)].name ?? ""
        }
    }

    /// Fast check: an HTML element named `lowercaseName`.
    public func hasTag(_ lowercaseName: String) -> Bool {
        let r = record
        // Comparing the interned name's string is cheaper than hashing `lowercaseName` to an id:
        // tag names are small strings, whose equality check compares their raw bits first.
        return r.kind == .element && r.namespace == .html && document.nameString(r.name) == lowercaseName
    }

    /// The element's local name as an integer (-1 for other nodes). Names HTML knows have the
    /// same number in every document (`Document.knownNameID`), so hot loops can switch on it
    /// instead of comparing strings.
    @inlinable public var localNameID: Int32 {
        let r = record
        return r.kind == .element ? r.name : -1
    }

    /// Integer form of `hasTag` for code inside the module.
    func isHTML(_ tag: Int32) -> Bool {
        let r = record
        return r.name == tag && r.namespace == .html && r.kind == .element
    }

    // MARK: Navigation

    /// The parent node (an element, the document or a fragment), or nil when detached.
    @inlinable public var parent: Node? { handle(record.parent) }

    /// The parent when it is an element, else nil.
    @inlinable public var parentElement: Node? {
        guard let p = parent, p.isElement else { return nil }
        return p
    }

    /// The first child, or nil.
    @inlinable public var firstChild: Node? { handle(record.firstChild) }
    /// The last child, or nil.
    @inlinable public var lastChild: Node? { handle(record.lastChild) }
    /// The next sibling, or nil.
    @inlinable public var nextSibling: Node? { handle(record.next) }
    /// The previous sibling, or nil.
    @inlinable public var previousSibling: Node? { handle(record.previous) }

    /// The first child that is an element, or nil.
    @inlinable public var firstElementChild: Node? {
        var c = record.firstChild
        while c >= 0 && document.nodes[Int(c)].kind != .element { c = document.nodes[Int(c)].next }
        return handle(c)
    }

    /// The last child that is an element, or nil.
    @inlinable public var lastElementChild: Node? {
        var c = record.lastChild
        while c >= 0 && document.nodes[Int(c)].kind != .element { c = document.nodes[Int(c)].previous }
        return handle(c)
    }

    /// The next sibling that is an element, or nil.
    @inlinable public var nextElementSibling: Node? {
        var c = record.next
        while c >= 0 && document.nodes[Int(c)].kind != .element { c = document.nodes[Int(c)].next }
        return handle(c)
    }

    /// The previous sibling that is an element, or nil.
    @inlinable public var previousElementSibling: Node? {
        var c = record.previous
        while c >= 0 && document.nodes[Int(c)].kind != .element { c = document.nodes[Int(c)].previous }
        return handle(c)
    }

    /// A snapshot of the child nodes.
    public var childNodes: [Node] {
        var result: [Node] = []
        var c = record.firstChild
        while c >= 0 {
            result.append(Node(document, c))
            c = document.nodes[Int(c)].next
        }
        return result
    }

    /// A snapshot of the element children.
    public var children: [Node] {
        var result: [Node] = []
        var c = record.firstChild
        while c >= 0 {
            if document.nodes[Int(c)].kind == .element { result.append(Node(document, c)) }
            c = document.nodes[Int(c)].next
        }
        return result
    }

    /// How many children are elements.
    @inlinable public var childElementCount: Int {
        var count = 0
        var c = record.firstChild
        while c >= 0 {
            if document.nodes[Int(c)].kind == .element { count += 1 }
            c = document.nodes[Int(c)].next
        }
        return count
    }

    /// Inclusive, like DOM `contains()`.
    public func contains(_ other: Node) -> Bool {
        guard other.document === document else { return false }
        var c = other.index
        while c >= 0 {
            if c == index { return true }
            c = document.nodes[Int(c)].parent
        }
        return false
    }

    /// The contents fragment of a `template` element.
    public var templateContent: Node? {
        document.templateContents[index].map { Node(document, $0) }
    }

    /// Pre-order descendants, excluding self; iterative.
    @inlinable public var descendants: DescendantSequence { DescendantSequence(root: self) }
}

/// Pre-order walk of a node's descendants (not the node itself).
public struct DescendantSequence: Sequence {
    @usableFromInline let root: Node

    @inlinable init(root: Node) { self.root = root }

    /// Walks a node's children in order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let document: Document
        @usableFromInline let root: Int32
        @usableFromInline var current: Int32
        @usableFromInline var started = false

        @inlinable init(document: Document, root: Int32, current: Int32) {
            self.document = document
            self.root = root
            self.current = current
        }

        /// The next child, or nil at the end.
        @inlinable public mutating func next() -> Node? {
            if !started {
                started = true
                current = document.nodes[Int(root)].firstChild
            } else if current >= 0 {
                current = document.following(current, within: root)
            }
            return current >= 0 ? Node(document, current) : nil
        }
    }

    /// An iterator over the children, first to last.
    @inlinable public func makeIterator() -> Iterator {
        Iterator(document: root.document, root: root.index, current: root.index)
    }
}

extension Node: CustomStringConvertible {
    /// A short label for test output and debugging: `<div#main.a.b>`, `#text "hi"`.
    public var description: String {
        switch kind {
        case .element:
            var label = "<" + localName
            if let id = getAttribute("id"), !id.isEmpty { label += "#" + id }
            for c in splitOnASCIIWhitespace(className) { label += "." + c }
            return label + ">"
        case .text: return "#text " + data.prefix(40).debugDescription
        case .comment: return "#comment " + data.prefix(40).debugDescription
        default: return tagName
        }
    }
}
