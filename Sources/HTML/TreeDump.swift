// Tree printing in the html5lib-tests format (`| <html>`, two spaces per level, attributes
// sorted, `svg `/`math ` prefixes, `content` for template contents). Iterative.

/// Dumps a document or fragment's children, or a single node and its subtree.
public func dumpTree(_ node: Node) -> String {
    var dumper = TreeDumper(document: node.document)
    switch node.kind {
    case .document, .documentFragment:
        var c = node.record.firstChild
        while c >= 0 {
            dumper.dump(c, depth: 0)
            c = node.document.nodes[Int(c)].next
        }
    default:
        dumper.dump(node.index, depth: 0)
    }
    return dumper.lines.joined(separator: "\n")
}

struct TreeDumper {
    let document: Document
    var lines: [String] = []

    init(document: Document) { self.document = document }

    /// One entry on the work stack: a node to print, or the `content` label of a template.
    enum Item { case node(Int32, Int), content(Int32, Int) }

    mutating func dump(_ root: Int32, depth: Int) {
        var work: [Item] = [.node(root, depth)]
        while let item = work.popLast() {
            switch item {
            case let .content(fragment, d):
                lines.append(prefix(d) + "content")
                pushChildren(of: fragment, depth: d + 1, into: &work)
            case let .node(index, d):
                let r = document.nodes[Int(index)]
                line(index, r, depth: d)
                if r.kind == .element {
                    attributeLines(r, depth: d + 1)
                    pushChildren(of: index, depth: d + 1, into: &work)
                    if let content = document.templateContents[index] { work.append(.content(content, d + 1)) }
                } else {
                    pushChildren(of: index, depth: d + 1, into: &work)
                }
            }
        }
    }

    func pushChildren(of parent: Int32, depth: Int, into work: inout [Item]) {
        var c = document.nodes[Int(parent)].lastChild
        while c >= 0 {
            work.append(.node(c, depth))
            c = document.nodes[Int(c)].previous
        }
    }

    func prefix(_ depth: Int) -> String {
        "| " + String(repeating: "  ", count: depth)
    }

    mutating func line(_ index: Int32, _ r: NodeRecord, depth: Int) {
        let p = prefix(depth)
        switch r.kind {
        case .element:
            let name = document.nameString(r.name)
            switch r.namespace {
            case .svg: lines.append(p + "<svg " + name + ">")
            case .mathml: lines.append(p + "<math " + name + ">")
            default: lines.append(p + "<" + name + ">")
            }
        case .text:
            lines.append(p + "\"" + document.characterData(index) + "\"")
        case .comment:
            lines.append(p + "<!-- " + document.strings[Int(r.payload)] + " -->")
        case .doctype:
            let d = document.doctypes[Int(r.payload)]
            var text = "<!DOCTYPE " + (d.name ?? "")
            if d.publicIdentifier != nil || d.systemIdentifier != nil {
                text += " \"" + (d.publicIdentifier ?? "") + "\" \"" + (d.systemIdentifier ?? "") + "\""
            }
            lines.append(p + text + ">")
        case .document:
            lines.append(p + "#document")
        case .documentFragment:
            lines.append(p + "#document-fragment")
        }
    }

    mutating func attributeLines(_ r: NodeRecord, depth: Int) {
        guard r.payload >= 0 else { return }
        let p = prefix(depth)
        let named = document.attributeLists[Int(r.payload)].map { attribute -> (String, String) in
            let name: String
            switch attribute.namespace {
            case .xlink: name = "xlink " + attribute.name
            case .xml: name = "xml " + attribute.name
            case .xmlns: name = "xmlns " + attribute.name
            default: name = attribute.name
            }
            return (name, attribute.value)
        }
        for (name, value) in named.sorted(by: { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }) {
            lines.append(p + name + "=\"" + value + "\"")
        }
    }
}
