// § 13.2.4.2 The stack of open elements: current node, scopes (integer compares on interned
// names), implied end tags; the categories themselves live in `HTMLElements`.

/// The element scopes of § 13.2.4.2.
enum Scope { case normal, listItem, button, table, select }

extension TreeBuilder {
    var currentNode: Int32 { stack.last ?? -1 }

    /// The context element when only the `html` element is open in the fragment case.
    var adjustedCurrentNode: Int32 {
        if contextElement >= 0 && stack.count == 1 { return contextElement }
        return stack.last ?? -1
    }

    @inline(__always) func name(_ node: Int32) -> Int32 { document.nodes[Int(node)].name }
    @inline(__always) func namespace(_ node: Int32) -> Namespace { document.nodes[Int(node)].namespace }

    /// An HTML element with the given tag id.
    @inline(__always) func isHTML(_ node: Int32, _ tag: Int32) -> Bool {
        node >= 0 && document.nodes[Int(node)].name == tag && document.nodes[Int(node)].namespace == .html
    }

    func currentIs(_ tag: Int32) -> Bool { isHTML(currentNode, tag) }

    /// Boundary elements for scope checks.
    func isScopeBoundary(_ node: Int32, _ scope: Scope) -> Bool {
        let r = document.nodes[Int(node)]
        switch r.namespace {
        case .html:
            switch scope {
            case .normal, .listItem, .button:
                switch r.name {
                case Tag.ol, Tag.ul: return scope == .listItem
                case Tag.button: return scope == .button
                default: return HTMLElements.boundsButtonScope(r.name)
                }
            case .table:
                return r.name == Tag.html || r.name == Tag.table || r.name == Tag.template
            case .select:
                return r.name != Tag.optgroup && r.name != Tag.option
            }
        case .mathml:
            if scope == .table { return false }
            if scope == .select { return true }
            switch r.name {
            case Tag.mi, Tag.mo, Tag.mn, Tag.ms, Tag.mtext, Tag.annotationXml: return true
            default: return false
            }
        case .svg:
            if scope == .table { return false }
            if scope == .select { return true }
            return r.name == Tag.foreignObject || r.name == Tag.desc || r.name == Tag.title
        default:
            return scope == .select
        }
    }

    /// "has an element in scope" for an HTML tag id.
    func inScope(_ tag: Int32, _ scope: Scope = .normal) -> Bool {
        if stack.count(of: tag) == 0 { return false }
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if isHTML(node, tag) { return true }
            if isScopeBoundary(node, scope) { return false }
            i -= 1
        }
        return false
    }

    /// "has an element in scope" for any HTML element matching `tags`.
    func inScope(where tags: (Int32) -> Bool, _ scope: Scope = .normal) -> Bool {
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if namespace(node) == .html && tags(name(node)) { return true }
            if isScopeBoundary(node, scope) { return false }
            i -= 1
        }
        return false
    }

    /// Whether a specific node is in scope.
    func nodeInScope(_ target: Int32, _ scope: Scope = .normal) -> Bool {
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if node == target { return true }
            if isScopeBoundary(node, scope) { return false }
            i -= 1
        }
        return false
    }

    /// Pops until an HTML element with the tag id has been popped.
    func popUntil(_ tag: Int32) {
        while let node = stack.popLast() {
            if isHTML(node, tag) { return }
        }
    }

    /// Pops until an HTML element matching `tags` has been popped.
    func popUntil(where tags: (Int32) -> Bool) {
        while let node = stack.popLast() {
            if namespace(node) == .html && tags(name(node)) { return }
        }
    }

    func isOnStack(_ node: Int32) -> Bool { stack.lastIndex(of: node) != nil }

    func stackContainsHTML(_ tag: Int32) -> Bool {
        stack.count(of: tag) > 0
    }

    func removeFromStack(_ node: Int32) {
        if let i = stack.lastIndex(of: node) { stack.remove(at: i) }
    }

    /// § 13.2.6.3 Generate implied end tags (optionally "except for" one tag; -1 = none).
    func generateImpliedEndTags(except exception: Int32 = -1) {
        while let node = stack.last, namespace(node) == .html {
            let n = name(node)
            guard n != exception else { return }
            switch n {
            case Tag.dd, Tag.dt, Tag.li, Tag.optgroup, Tag.option, Tag.p, Tag.rb, Tag.rp, Tag.rt, Tag.rtc:
                stack.removeLast()
            default:
                return
            }
        }
    }

    /// Generate all implied end tags thoroughly.
    func generateAllImpliedEndTagsThoroughly() {
        while let node = stack.last, namespace(node) == .html {
            switch name(node) {
            case Tag.caption, Tag.colgroup, Tag.dd, Tag.dt, Tag.li, Tag.optgroup, Tag.option, Tag.p,
                 Tag.rb, Tag.rp, Tag.rt, Tag.rtc, Tag.tbody, Tag.td, Tag.tfoot, Tag.th, Tag.thead, Tag.tr:
                stack.removeLast()
            default:
                return
            }
        }
    }

    /// § 13.2.4.2 The "special" category.
    func isSpecial(_ node: Int32) -> Bool {
        let r = document.nodes[Int(node)]
        switch r.namespace {
        case .html:
            return HTMLElements.isSpecial(r.name)
        case .mathml:
            switch r.name {
            case Tag.mi, Tag.mo, Tag.mn, Tag.ms, Tag.mtext, Tag.annotationXml: return true
            default: return false
            }
        case .svg:
            return r.name == Tag.foreignObject || r.name == Tag.desc || r.name == Tag.title
        default:
            return false
        }
    }
}
