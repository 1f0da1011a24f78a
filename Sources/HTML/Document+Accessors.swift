// document.documentElement / head / body / title.

extension Document {
    /// The root `html` element (the first element child of the document).
    public var documentElement: Node? { node.firstElementChild }

    /// The `head` element: the first `head` child of the root `html` element, if any.
    public var head: Node? {
        guard let html = documentElement, html.isHTML(Tag.html) else { return nil }
        return html.children.first { $0.isHTML(Tag.head) }
    }

    /// The first `body` or `frameset` child of the `html` element.
    public var body: Node? {
        guard let html = documentElement, html.isHTML(Tag.html) else { return nil }
        return html.children.first { $0.isHTML(Tag.body) || $0.isHTML(Tag.frameset) }
    }

    /// document.title: the first `title` element's child text, whitespace stripped and collapsed.
    public var title: String {
        var c = following(0, within: 0)
        while c >= 0 {
            let r = nodes[Int(c)]
            if r.kind == .element && r.name == Tag.title && r.namespace == .html {
                var text = ""
                var t = r.firstChild
                while t >= 0 {
                    if nodes[Int(t)].kind == .text { text += characterData(t) }
                    t = nodes[Int(t)].next
                }
                return collapseASCIIWhitespace(text)
            }
            c = following(c, within: 0)
        }
        return ""
    }
}

func isASCIIWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
}

/// Strips leading/trailing ASCII whitespace and collapses inner runs to one space.
func collapseASCIIWhitespace(_ s: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    var pendingSpace = false
    for b in s.utf8 {
        if isASCIIWhitespace(b) {
            pendingSpace = !out.isEmpty
        } else {
            if pendingSpace { out.append(0x20); pendingSpace = false }
            out.append(b)
        }
    }
    return String(decoding: out, as: UTF8.self)
}
