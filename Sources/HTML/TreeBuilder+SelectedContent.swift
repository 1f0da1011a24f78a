// Customizable select (HTML § 4.10.10, 2025): "When an option element is popped off the stack
// of open elements of an HTML parser, the user agent must run maybe clone an option into
// selectedcontent given the option." The stack records popped options; after each token (and
// at the end, where every open element is popped) the tree builder runs the steps, so the
// option's children are complete when they are cloned.

extension TreeBuilder {
    func clonePoppedOptions() {
        let options = stack.takePoppedOptions()
        // No selectedcontent element in the document: no option has one to be cloned into.
        guard document.hasSelectedContent else { return }
        for option in options { maybeCloneOptionIntoSelectedContent(option) }
    }

    /// "Maybe clone an option into selectedcontent": when the option is its select's selected
    /// option and the select has a selectedcontent, that element's children become a deep copy
    /// of the option's children.
    func maybeCloneOptionIntoSelectedContent(_ option: Int32) {
        guard let select = nearestAncestorSelect(of: option), !hasAttribute(select, "multiple"),
              isSelected(option, in: select), let target = enabledSelectedContent(of: select) else { return }
        while case let child = document.nodes[Int(target)].firstChild, child >= 0 { document.unlink(child) }
        var child = document.nodes[Int(option)].firstChild
        while child >= 0 {
            document.link(document.copyTree(from: document, root: child, deep: true), appendTo: target)
            child = document.nodes[Int(child)].next
        }
    }

    /// "Option element nearest ancestor select": nil past a datalist, hr or option, or a
    /// second optgroup.
    func nearestAncestorSelect(of option: Int32) -> Int32? {
        var sawOptgroup = false
        var node = document.nodes[Int(option)].parent
        while node >= 0 {
            let r = document.nodes[Int(node)]
            if r.kind == .element && r.namespace == .html {
                switch r.name {
                case Tag.datalist, Tag.hr, Tag.option: return nil
                case Tag.optgroup:
                    if sawOptgroup { return nil }
                    sawOptgroup = true
                case Tag.select: return node
                default: break
                }
            }
            node = r.parent
        }
        return nil
    }

    /// The option's selectedness while the parser builds the select: an option with a
    /// `selected` attribute is selected when inserted (the last one wins, and later ones are
    /// not in the tree yet); with none, a select of display size 1 selects its first option
    /// that is not disabled (the selectedness setting algorithm).
    func isSelected(_ option: Int32, in select: Int32) -> Bool {
        if hasAttribute(option, "selected") { return true }
        if let size = attribute(select, "size") {
            // "Rules for parsing non-negative integers": leading whitespace, then digits.
            let digits = size.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\r" }.prefix { $0.isASCII && $0.isNumber }
            if let n = Int(digits), n > 1 { return false }
        }
        var firstEnabled: Int32? = nil
        var node = document.nodes[Int(select)].firstChild
        // The select's options in tree order (those whose nearest ancestor select is `select`).
        while node >= 0 {
            let r = document.nodes[Int(node)]
            if r.kind == .element && r.namespace == .html && r.name == Tag.option && nearestAncestorSelect(of: node) == select {
                if hasAttribute(node, "selected") { return false }
                if firstEnabled == nil && !hasAttribute(node, "disabled") { firstEnabled = node }
                // Another option is the first enabled one: the answer is no whatever follows.
                if let first = firstEnabled, first != option { return false }
            }
            node = nextInTree(node, within: select)
        }
        return firstEnabled == option
    }

    /// "A select's enabled selectedcontent": its first selectedcontent descendant. (Its
    /// disabled state is only ever set by DOM insertion steps outside the parser.)
    func enabledSelectedContent(of select: Int32) -> Int32? {
        var node = document.nodes[Int(select)].firstChild
        while node >= 0 {
            let r = document.nodes[Int(node)]
            if r.kind == .element && r.namespace == .html && r.name == Tag.selectedcontent { return node }
            node = nextInTree(node, within: select)
        }
        return nil
    }

    /// The next node in tree order inside `root`, or -1.
    private func nextInTree(_ node: Int32, within root: Int32) -> Int32 {
        let r = document.nodes[Int(node)]
        if r.firstChild >= 0 { return r.firstChild }
        var n = node
        while n != root && n >= 0 {
            let next = document.nodes[Int(n)].next
            if next >= 0 { return next }
            n = document.nodes[Int(n)].parent
        }
        return -1
    }

    private func attribute(_ element: Int32, _ name: String) -> String? {
        Node(document, element).getAttribute(name)
    }

    private func hasAttribute(_ element: Int32, _ name: String) -> Bool {
        attribute(element, name) != nil
    }
}
