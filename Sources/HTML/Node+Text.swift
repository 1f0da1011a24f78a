// Character data and textContent (iterative: no recursion on deep trees).

extension Node {
    /// Text or comment data; "" for other kinds (setting is then a no-op).
    @inlinable public var data: String {
        get {
            let r = record
            return r.kind == .text || r.kind == .comment ? document.characterData(index) : ""
        }
        nonmutating set {
            let r = record
            guard r.kind == .text || r.kind == .comment else { return }
            document.setCharacterData(index, newValue)
        }
    }

    /// The concatenated text of all descendant text nodes (or the data of a text/comment node).
    /// Setting replaces all children with one text node (none when the value is empty).
    public var textContent: String {
        get {
            let r = record
            switch r.kind {
            case .text, .comment: return document.characterData(index)
            case .doctype: return ""
            default: break
            }
            var result = ""
            var c = document.following(index, within: index)
            while c >= 0 {
                let cr = document.nodes[Int(c)]
                if cr.kind == .text { result += document.characterData(c) }
                c = document.following(c, within: index)
            }
            return result
        }
        nonmutating set {
            let r = record
            switch r.kind {
            case .text, .comment:
                document.setCharacterData(index, newValue)
            case .element, .documentFragment, .document:
                removeAllChildren()
                if !newValue.isEmpty { appendChild(document.createTextNode(newValue)) }
            case .doctype:
                break
            }
        }
    }

    func removeAllChildren() {
        var c = record.firstChild
        while c >= 0 {
            let next = document.nodes[Int(c)].next
            document.unlink(c)
            c = next
        }
    }
}
