// § 13.3 Serializing HTML fragments: outerHTML / innerHTML. Iterative (an explicit stack of
// open elements), so 100,000 nested elements serialize without recursion.

extension Node {
    /// The serialization of this node's children (template contents for `template`).
    /// Setting parses `html` as a fragment with this element as the context.
    public var innerHTML: String {
        get {
            var out = Serializer(document: document)
            out.serializeChildren(of: index)
            return out.result
        }
        nonmutating set { setInnerHTML(newValue) }
    }

    /// The serialization of this node itself and its subtree.
    public var outerHTML: String {
        var out = Serializer(document: document)
        out.serialize(index)
        return out.result
    }
}

struct Serializer {
    let document: Document
    var bytes: [UInt8] = []

    init(document: Document) {
        self.document = document
        bytes.reserveCapacity(4096)
    }

    var result: String { String(decoding: bytes, as: UTF8.self) }

    /// Parents whose text children are written literally.
    func isRawTextParent(_ parent: Int32) -> Bool {
        guard parent >= 0 else { return false }
        let r = document.nodes[Int(parent)]
        guard r.kind == .element, r.namespace == .html else { return false }
        switch r.name {
        case Tag.style, Tag.script, Tag.xmp, Tag.iframe, Tag.noembed, Tag.noframes, Tag.plaintext:
            return true
        case Tag.noscript:
            return document.scripting
        default:
            return false
        }
    }

    /// Where an element's serialized children come from (its template contents for templates).
    func childContainer(_ element: Int32) -> Int32 {
        document.templateContents[element] ?? element
    }

    mutating func serialize(_ index: Int32) {
        let r = document.nodes[Int(index)]
        switch r.kind {
        case .document, .documentFragment:
            serializeChildren(of: index)
        case .element:
            if openTag(index, r) {
                serializeChildren(of: index)
                closeTag(r)
            }
        default:
            leaf(index, r, parent: r.parent)
        }
    }

    mutating func serializeChildren(of root: Int32) {
        let r = document.nodes[Int(root)]
        if r.kind == .element && r.namespace == .html && HTMLElements.isVoid(r.name) { return }
        var stack: [Int32] = []
        var current = document.nodes[Int(childContainer(root))].firstChild
        var parent = childContainer(root)
        while true {
            if current < 0 {
                guard let element = stack.popLast() else { return }
                closeTag(document.nodes[Int(element)])
                current = document.nodes[Int(element)].next
                parent = document.nodes[Int(element)].parent
                continue
            }
            let cr = document.nodes[Int(current)]
            if cr.kind == .element {
                if openTag(current, cr) {
                    stack.append(current)
                    parent = childContainer(current)
                    current = document.nodes[Int(parent)].firstChild
                    continue
                }
            } else {
                leaf(current, cr, parent: parent)
            }
            current = cr.next
        }
    }

    /// Writes `<name attrs>`; returns whether children and an end tag follow.
    mutating func openTag(_ index: Int32, _ r: NodeRecord) -> Bool {
        bytes.append(0x3C)
        append(document.nameString(r.name))
        if r.payload >= 0 {
            for attribute in document.attributeLists[Int(r.payload)] {
                bytes.append(0x20)
                if attribute.namespace == nil { append(attribute.name) } else { append(Serializer.serializedName(attribute)) }
                bytes.append(0x3D)
                bytes.append(0x22)
                escape(attribute.value, attributeMode: true)
                bytes.append(0x22)
            }
        }
        bytes.append(0x3E)
        if r.namespace == .html && HTMLElements.isVoid(r.name) { return false }
        if r.namespace == .html && (r.name == Tag.pre || r.name == Tag.textarea || r.name == Tag.listing) {
            let first = document.nodes[Int(index)].firstChild
            if first >= 0, document.nodes[Int(first)].kind == .text,
               document.characterData(first).utf8.first == 0x0A {
                bytes.append(0x0A)
            }
        }
        return true
    }

    mutating func closeTag(_ r: NodeRecord) {
        bytes.append(0x3C)
        bytes.append(0x2F)
        append(document.nameString(r.name))
        bytes.append(0x3E)
    }

    /// Appends a string's UTF-8 from its contiguous storage.
    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    static func serializedName(_ attribute: Attribute) -> String {
        switch attribute.namespace {
        case nil, .html, .svg, .mathml: return attribute.name
        case .xml: return "xml:" + attribute.name
        case .xmlns: return attribute.name == "xmlns" ? "xmlns" : "xmlns:" + attribute.name
        case .xlink: return "xlink:" + attribute.name
        }
    }

    mutating func leaf(_ index: Int32, _ r: NodeRecord, parent: Int32) {
        switch r.kind {
        case .text:
            if isRawTextParent(parent) {
                if r.name < -1 { bytes.append(contentsOf: document.rawTexts[Int(-2 - r.name)]) }
                else { append(document.strings[Int(r.payload)]) }
            } else {
                escape(document.characterData(index), attributeMode: false)
            }
        case .comment:
            bytes.append(contentsOf: "<!--".utf8)
            bytes.append(contentsOf: document.strings[Int(r.payload)].utf8)
            bytes.append(contentsOf: "-->".utf8)
        case .doctype:
            bytes.append(contentsOf: "<!DOCTYPE ".utf8)
            bytes.append(contentsOf: (document.doctypes[Int(r.payload)].name ?? "").utf8)
            bytes.append(0x3E)
        default:
            break
        }
    }

    /// § 13.3 "Escaping a string": & and U+00A0 always; < and > always (text and, per the
    /// current spec, attribute values); " only in attribute mode.
    mutating func escape(_ s: String, attributeMode: Bool) {
        var s = s
        s.withUTF8 { escape($0, attributeMode: attributeMode) }
    }

    /// `escape` over the string's UTF-8: runs that need no escaping are copied whole.
    mutating func escape(_ buffer: UnsafeBufferPointer<UInt8>, attributeMode: Bool) {
        let n = buffer.count
        var start = 0
        var i = 0
        while i < n {
            let b = buffer[i]
            let entity: StaticString
            var width = 1
            switch b {
            case 0x26: entity = "&amp;"
            case 0x3C: entity = "&lt;"
            case 0x3E: entity = "&gt;"
            case 0x22 where attributeMode: entity = "&quot;"
            case 0xC2 where i + 1 < n && buffer[i + 1] == 0xA0:
                entity = "&nbsp;"
                width = 2
            default:
                i += 1
                continue
            }
            if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<i])) }
            entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
            i += width
            start = i
        }
        if start < n { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<n])) }
    }
}
