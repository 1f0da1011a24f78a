// The arena DOM: a `Document` owns every node in one flat array of small records; a `Node`
// is a value handle (document, index). No per-node class instances, so a deep tree frees
// without recursion and tree walks are index chasing.

/// The kind of a node, as the DOM's `nodeType` distinguishes them.
public enum NodeKind: UInt8, Sendable {
    case document, documentFragment, doctype, element, text, comment
}

/// The document's quirks mode (HTML § 13.2.6.4.1), set from its doctype by the tree builder.
public enum QuirksMode: Sendable {
    case noQuirks, limitedQuirks, quirks
}

/// One node's links and payload. `-1` means "none" for every link.
/// Visible to inlined code (`@usableFromInline`) so other modules' walks over `Node` handles
/// compile to index chasing in the arena, without a call per step.
@usableFromInline
struct NodeRecord {
    @usableFromInline var parent: Int32 = -1
    @usableFromInline var firstChild: Int32 = -1
    @usableFromInline var lastChild: Int32 = -1
    @usableFromInline var next: Int32 = -1
    @usableFromInline var previous: Int32 = -1
    /// Interned tag name id (elements), else -1.
    @usableFromInline var name: Int32 = -1
    /// Text/comment: index into `strings`; element: index into `attributeLists` or -1;
    /// doctype: index into `doctypes`.
    @usableFromInline var payload: Int32 = -1
    @usableFromInline var kind: NodeKind
    @usableFromInline var namespace: Namespace = .html

    init(kind: NodeKind) { self.kind = kind }
}

/// A parsed or built HTML document and the owner of all its nodes.
/// Not Sendable: one thread at a time uses a document and its nodes.
public final class Document {
    @usableFromInline @exclusivity(unchecked) var nodes: [NodeRecord] = []
    @usableFromInline @exclusivity(unchecked) var strings: [String] = []
    /// The text of raw-text elements (script, style, ...) as the tokenizer's UTF-8 bytes, kept
    /// until something reads it: such a text node's `name` is `-2 - i` for `rawTexts[i]` (other
    /// text nodes have -1) and its `strings` entry stays "" until then. Scripts and styles are
    /// half the bytes of the corpus's pages, extraction drops them unread, and building a
    /// `String` validates every byte.
    @usableFromInline @exclusivity(unchecked) var rawTexts: [[UInt8]] = []
    @usableFromInline @exclusivity(unchecked) var attributeLists: [[Attribute]] = []
    @exclusivity(unchecked) var doctypes: [DoctypeToken] = []
    /// Template element index -> its contents (a document fragment node).
    @exclusivity(unchecked) var templateContents: [Int32: Int32] = [:]
    /// `elementNames[id]` is true once an element named `id` has been made (built, copied in or
    /// renamed), and never goes back: a search for names none of which was ever used ends
    /// without walking the tree. Most of Readability's walks look for a few names.
    @usableFromInline @exclusivity(unchecked) var elementNames: [Bool] = []
    /// Names not in `TagNames.all`, interned for this document.
    @exclusivity(unchecked) var extraNames: [String] = []
    @exclusivity(unchecked) var extraNameLookup: [String: Int32] = [:]
    /// The scripting flag the document was parsed with (the serializer needs it for noscript).
    var scripting = true
    /// Set once an HTML `selectedcontent` element is created: until then the parser's "maybe
    /// clone an option into selectedcontent" steps have nothing to do.
    var hasSelectedContent = false

    /// The quirks mode the doctype put the document in (`.noQuirks` for a document built by hand).
    public var quirksMode: QuirksMode = .noQuirks
    /// The encoding the document's bytes were decoded with and how it was decided; nil for a
    /// document parsed from a string or built by hand.
    public internal(set) var encoding: DocumentEncoding?

    /// An empty document (no children); `Document.parse` builds one from markup.
    public init() {
        nodes.reserveCapacity(64)
        nodes.append(NodeRecord(kind: .document))
    }

    /// A snapshot's reads leave its storage alone: a raw text read there is cached beside the
    /// arrays (`frozenTexts`), since caching it in them would copy the arrays the snapshot shares.
    var frozen = false
    var frozenTexts: [Int32: String] = [:]

    private init(snapshotOf source: Document) {
        nodes = source.nodes
        strings = source.strings
        rawTexts = source.rawTexts
        attributeLists = source.attributeLists
        doctypes = source.doctypes
        templateContents = source.templateContents
        extraNames = source.extraNames
        extraNameLookup = source.extraNameLookup
        elementNames = source.elementNames
        scripting = source.scripting
        hasSelectedContent = source.hasSelectedContent
        quirksMode = source.quirksMode
        encoding = source.encoding
        frozen = true
    }

    /// The document as it is now, to read later or copy subtrees back from (`importNode`):
    /// it shares this document's storage until this one changes, which then copies each array
    /// it writes once (the node records are plain integers, copied as one block). Cheaper than
    /// a deep clone of the body when most of the page is kept, as it is before an extraction.
    /// Its nodes have the same indices as this document's (`counterpart(of:)`).
    public func snapshot() -> Document {
        Document(snapshotOf: self)
    }

    /// An independent copy of the document as it is now, to change on its own (a snapshot is
    /// for reading): like a snapshot it shares this document's storage until either changes.
    /// A development run parses a page once and extracts each variant from a copy.
    public func copy() -> Document {
        let copy = Document(snapshotOf: self)
        copy.frozen = false
        copy.frozenTexts = frozenTexts
        return copy
    }

    /// The node at `node`'s index in this document: for a snapshot and the document it was
    /// taken from, the same node as it was (or is).
    public func counterpart(of node: Node) -> Node {
        precondition(Int(node.index) < nodes.count, "the node is newer than this document")
        return Node(self, node.index)
    }

    /// The document node itself (index 0).
    public var node: Node { Node(self, 0) }

    /// Every node's `index` is below this, so side tables indexed by node can be plain arrays.
    public var indexLimit: Int { nodes.count }

    // MARK: Names

    func intern(_ name: String) -> Int32 {
        if let id = TagNames.lookup[name] { return id }
        if let id = extraNameLookup[name] { return id }
        let id = TagNames.knownCount + Int32(extraNames.count)
        extraNames.append(name)
        extraNameLookup[name] = id
        return id
    }

    /// The `Node.localNameID` every document gives `name`, for the names HTML knows (the
    /// elements of HTML, SVG and MathML); nil for others, which get per-document numbers.
    public static func knownNameID(_ name: String) -> Int32? { TagNames.lookup[name] }

    /// The id of `name` if this document knows it, without interning it.
    func existingNameID(_ name: String) -> Int32? {
        TagNames.lookup[name] ?? extraNameLookup[name]
    }

    func nameString(_ id: Int32) -> String {
        id < TagNames.knownCount ? TagNames.all[Int(id)] : extraNames[Int(id - TagNames.knownCount)]
    }

    // MARK: Allocation

    /// Sizes the arena for a page of `count` bytes before the first node is built (the corpus
    /// averages a node per 100 bytes and a text or comment per 160), so it does not regrow
    /// and copy itself a dozen times while parsing. The node estimate is one per 80 bytes:
    /// at the average, half the pages outgrew it and copied the whole arena once more.
    /// Later calls do nothing.
    func reserveCapacity(forInputBytes count: Int) {
        guard nodes.count == 1, strings.isEmpty else { return }
        nodes.reserveCapacity(64 + count / 80)
        strings.reserveCapacity(32 + count / 256)
    }

    func newNode(_ kind: NodeKind) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(NodeRecord(kind: kind))
        return index
    }

    @inline(__always) func noteElementName(_ id: Int32) {
        let i = Int(id)
        if i >= elementNames.count { elementNames += repeatElement(false, count: i + 1 - elementNames.count + 32) }
        elementNames[i] = true
    }

    /// True when an element named `id` may be in the document (see `elementNames`).
    @inlinable func mayHaveElements(named id: Int32) -> Bool {
        let i = Int(id)
        return i < elementNames.count && elementNames[i]
    }

    func newElement(_ nameID: Int32, _ namespace: Namespace, _ attributes: [Attribute]) -> Int32 {
        noteElementName(nameID)
        var record = NodeRecord(kind: .element)
        record.name = nameID
        record.namespace = namespace
        if !attributes.isEmpty {
            record.payload = Int32(attributeLists.count)
            attributeLists.append(attributes)
        }
        let index = Int32(nodes.count)
        nodes.append(record)
        if nameID == Tag.template && namespace == .html {
            templateContents[index] = newNode(.documentFragment)
        } else if nameID == Tag.selectedcontent && namespace == .html {
            hasSelectedContent = true
        }
        return index
    }

    func newCharacterData(_ kind: NodeKind, _ data: String) -> Int32 {
        var record = NodeRecord(kind: kind)
        record.payload = Int32(strings.count)
        strings.append(data)
        let index = Int32(nodes.count)
        nodes.append(record)
        return index
    }

    /// A text node holding `bytes` (valid UTF-8) unconverted; see `rawTexts`.
    func newRawText(_ bytes: [UInt8]) -> Int32 {
        var record = NodeRecord(kind: .text)
        record.payload = Int32(strings.count)
        record.name = -2 - Int32(rawTexts.count)
        strings.append("")
        rawTexts.append(bytes)
        let index = Int32(nodes.count)
        nodes.append(record)
        return index
    }

    /// The data of text or comment node `index`, made from its raw bytes on the first read.
    @inlinable func characterData(_ index: Int32) -> String {
        let r = nodes[Int(index)]
        return r.name < -1 ? materializeRawText(index) : strings[Int(r.payload)]
    }

    /// Turns a raw-text node's bytes into its string, once.
    @usableFromInline @inline(never) func materializeRawText(_ index: Int32) -> String {
        let r = nodes[Int(index)]
        if frozen, let text = frozenTexts[index] { return text }
        let raw = Int(-2 - r.name)
        let text = String(decoding: rawTexts[raw], as: UTF8.self)
        if frozen {
            frozenTexts[index] = text
            return text
        }
        strings[Int(r.payload)] = text
        rawTexts[raw] = []
        nodes[Int(index)].name = -1
        return text
    }

    /// Replaces the data of text or comment node `index`.
    @usableFromInline func setCharacterData(_ index: Int32, _ value: String) {
        let r = nodes[Int(index)]
        if r.name < -1 {
            rawTexts[Int(-2 - r.name)] = []
            nodes[Int(index)].name = -1
        }
        strings[Int(r.payload)] = value
    }

    func newDoctype(_ token: DoctypeToken) -> Int32 {
        var record = NodeRecord(kind: .doctype)
        record.payload = Int32(doctypes.count)
        doctypes.append(token)
        let index = Int32(nodes.count)
        nodes.append(record)
        return index
    }

    /// A new element owned by this document, not yet in the tree (`localName` is used as given).
    public func createElement(_ localName: String, namespace: Namespace = .html) -> Node {
        let name = namespace == .html ? asciiLowercased(localName) : localName
        return Node(self, newElement(intern(name), namespace, []))
    }

    /// A new text node owned by this document, not yet in the tree.
    public func createTextNode(_ data: String) -> Node { Node(self, newCharacterData(.text, data)) }

    /// A new comment node owned by this document, not yet in the tree.
    public func createComment(_ data: String) -> Node { Node(self, newCharacterData(.comment, data)) }

    /// A new, empty document fragment owned by this document.
    public func createDocumentFragment() -> Node { Node(self, newNode(.documentFragment)) }

    // MARK: Links (index level; the tree builder uses these directly)

    /// Detaches `child` from its parent, if any.
    func unlink(_ child: Int32) {
        let c = Int(child)
        let parent = nodes[c].parent
        guard parent >= 0 else { return }
        let previous = nodes[c].previous, next = nodes[c].next
        if previous >= 0 { nodes[Int(previous)].next = next } else { nodes[Int(parent)].firstChild = next }
        if next >= 0 { nodes[Int(next)].previous = previous } else { nodes[Int(parent)].lastChild = previous }
        nodes[c].parent = -1
        nodes[c].next = -1
        nodes[c].previous = -1
    }

    /// Appends a detached node as the last child of `parent`.
    func link(_ child: Int32, appendTo parent: Int32) {
        let last = nodes[Int(parent)].lastChild
        nodes[Int(child)].parent = parent
        nodes[Int(child)].previous = last
        nodes[Int(child)].next = -1
        if last >= 0 { nodes[Int(last)].next = child } else { nodes[Int(parent)].firstChild = child }
        nodes[Int(parent)].lastChild = child
    }

    /// Inserts a detached node before `reference` (a child of `parent`), or appends when -1.
    func link(_ child: Int32, into parent: Int32, before reference: Int32) {
        guard reference >= 0 else { return link(child, appendTo: parent) }
        let previous = nodes[Int(reference)].previous
        nodes[Int(child)].parent = parent
        nodes[Int(child)].previous = previous
        nodes[Int(child)].next = reference
        nodes[Int(reference)].previous = child
        if previous >= 0 { nodes[Int(previous)].next = child } else { nodes[Int(parent)].firstChild = child }
    }

    /// Moves all children of `from` to the end of `to`, keeping their order.
    func moveChildren(of from: Int32, to: Int32) {
        var child = nodes[Int(from)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].next
            unlink(child)
            link(child, appendTo: to)
            child = next
        }
    }

    /// The next node in pre-order within the subtree rooted at `root`, or -1.
    @inlinable func following(_ index: Int32, within root: Int32) -> Int32 {
        let first = nodes[Int(index)].firstChild
        if first >= 0 { return first }
        return followingSkippingChildren(index, within: root)
    }

    /// The next node in pre-order after `index`'s subtree, staying inside `root`, or -1.
    @inlinable func followingSkippingChildren(_ index: Int32, within root: Int32) -> Int32 {
        var current = index
        while current != root {
            let next = nodes[Int(current)].next
            if next >= 0 { return next }
            current = nodes[Int(current)].parent
            if current < 0 { return -1 }
        }
        return -1
    }
}

@available(*, unavailable, message: "A Document and its nodes belong to one thread at a time")
extension Document: Sendable {}

/// ASCII-only lowercasing (HTML names are case-insensitive in ASCII only).
func asciiLowercased(_ s: String) -> String {
    // Names are nearly always lowercase already: check the contiguous bytes in one tight loop.
    let hasUpper = s.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains { $0 &- 0x41 < 26 } }
        ?? s.utf8.contains { $0 &- 0x41 < 26 }
    guard hasUpper else { return s }
    return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
}

func asciiUppercased(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 & ~0x20 : $0 }, as: UTF8.self)
}
