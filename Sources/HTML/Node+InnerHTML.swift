// innerHTML setter: fragment parsing with this node as the context, then the parsed nodes are
// copied into this document (iteratively) and replace the children.

extension Node {
    /// The fragment parsing context for this node.
    var fragmentContext: FragmentContext {
        guard isElement else { return FragmentContext(localName: "body", namespace: .html) }
        return FragmentContext(localName: localName, namespace: namespace)
    }

    /// Replaces the children (template contents for `template`) with the parsed `html`.
    func setInnerHTML(_ html: String) {
        let (parsed, fragment) = Document.parseFragment(
            html, context: fragmentContext, quirksMode: document.quirksMode,
            options: ParseOptions(scripting: document.scripting))
        let target = document.templateContents[index] ?? index
        Node(document, target).removeAllChildren()
        var c = parsed.nodes[Int(fragment.index)].firstChild
        while c >= 0 {
            let copy = document.copyTree(from: parsed, root: c, deep: true)
            document.link(copy, appendTo: target)
            c = parsed.nodes[Int(c)].next
        }
        withExtendedLifetime(parsed) {}
    }
}
