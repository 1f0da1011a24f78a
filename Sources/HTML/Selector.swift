// A small CSS selector engine: type, `*`, `.class`, `#id`, `[attr]`, `[attr=v]` (and the
// `~= |= ^= $= *=` operators), compounds, descendant " ", child ">", next-sibling "+",
// subsequent-sibling "~" combinators and comma lists. Unsupported syntax matches nothing.

struct SelectorList {
    var complexes: [ComplexSelector]
}

/// Compounds right to left: `compounds[0]` is the subject; `combinators[i]` links
/// `compounds[i]` to `compounds[i + 1]` (the one on its left).
struct ComplexSelector {
    var compounds: [CompoundSelector] = []
    var combinators: [Combinator] = []
}

enum Combinator { case descendant, child, nextSibling, subsequentSibling }

struct CompoundSelector {
    /// Lowercased type name, nil for `*` or none.
    var tag: String?
    var ids: [String] = []
    var classes: [String] = []
    var attributes: [AttributeSelector] = []
}

struct AttributeSelector {
    enum Operator { case exists, equals, includes, dashMatch, prefix, suffix, substring }
    var name: String
    var op: Operator
    var value: String
}

extension CompoundSelector {
    func matches(_ node: Node) -> Bool {
        let r = node.record
        guard r.kind == .element else { return false }
        if let tag {
            let name = node.document.nameString(r.name)
            if r.namespace == .html ? name != tag : asciiLowercased(name) != tag { return false }
        }
        for id in ids where node.getAttribute("id") != id { return false }
        if !classes.isEmpty {
            guard let classAttribute = node.getAttribute("class") else { return false }
            let tokens = splitOnASCIIWhitespace(classAttribute)
            for c in classes where !tokens.contains(where: { $0 == c }) { return false }
        }
        for attribute in attributes where !attribute.matches(node) { return false }
        return true
    }
}

extension AttributeSelector {
    func matches(_ node: Node) -> Bool {
        guard let actual = node.getAttribute(name) else { return false }
        switch op {
        case .exists: return true
        case .equals: return actual == value
        case .includes: return !value.isEmpty && splitOnASCIIWhitespace(actual).contains(where: { $0 == value })
        case .dashMatch: return actual == value || actual.hasPrefix(value + "-")
        case .prefix: return !value.isEmpty && actual.hasPrefix(value)
        case .suffix: return !value.isEmpty && actual.hasSuffix(value)
        case .substring: return !value.isEmpty && actual.contains(value)
        }
    }
}

extension ComplexSelector {
    /// Right-to-left matching; backtracks over ancestors/siblings for " " and "~".
    func matches(_ node: Node) -> Bool {
        matches(node, from: 0)
    }

    private func matches(_ node: Node, from i: Int) -> Bool {
        guard compounds[i].matches(node) else { return false }
        if i == compounds.count - 1 { return true }
        switch combinators[i] {
        case .child:
            guard let p = node.parentElement else { return false }
            return matches(p, from: i + 1)
        case .descendant:
            var p = node.parentElement
            while let candidate = p {
                if matches(candidate, from: i + 1) { return true }
                p = candidate.parentElement
            }
            return false
        case .nextSibling:
            guard let s = node.previousElementSibling else { return false }
            return matches(s, from: i + 1)
        case .subsequentSibling:
            var s = node.previousElementSibling
            while let candidate = s {
                if matches(candidate, from: i + 1) { return true }
                s = candidate.previousElementSibling
            }
            return false
        }
    }
}

func splitOnASCIIWhitespace(_ s: String) -> [Substring] {
    s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
}

extension Node {
    /// Descendant elements matching the selector, in document order.
    public func querySelectorAll(_ selector: String) -> [Node] {
        guard let list = SelectorParser.parse(selector) else { return [] }
        var result: [Node] = []
        for node in descendants where node.isElement {
            if list.complexes.contains(where: { $0.matches(node) }) { result.append(node) }
        }
        return result
    }

    /// The first descendant element matching the selector.
    public func querySelector(_ selector: String) -> Node? {
        guard let list = SelectorParser.parse(selector) else { return nil }
        for node in descendants where node.isElement {
            if list.complexes.contains(where: { $0.matches(node) }) { return node }
        }
        return nil
    }

    /// Descendant elements with the given name ("*" = all), in document order;
    /// ASCII case-insensitive for HTML elements.
    public func getElementsByTagName(_ name: String) -> [Node] {
        var result: [Node] = []
        let all = name == "*"
        let lowered = asciiLowercased(name)
        let htmlID = document.existingNameID(lowered)
        let foreignID = document.existingNameID(name)
        if !all && htmlID == nil && foreignID == nil { return [] }
        var c = document.following(index, within: index)
        while c >= 0 {
            let r = document.nodes[Int(c)]
            if r.kind == .element {
                if all || (r.namespace == .html ? r.name == htmlID : r.name == foreignID) {
                    result.append(Node(document, c))
                }
            }
            c = document.following(c, within: index)
        }
        return result
    }
}
