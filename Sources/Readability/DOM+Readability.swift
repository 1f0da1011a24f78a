// Small DOM helpers Readability needs on top of the HTML module's API, with Readability.js's
// node-walking functions (_getNextNode, _removeAndGetNext, _setNodeTag, ...).
import HTML

extension Node {
    /// HTML element with this (lowercase) local name; Readability.js's `tagName === "DIV"`.
    @inline(__always) func isHTML(_ name: String) -> Bool { hasTag(name) }

    /// Value of the inline `style` declaration `property` (last one wins), lowercased.
    func inlineStyle(_ property: String) -> String? {
        guard let style = getAttribute("style"), !style.isEmpty else { return nil }
        return Node.inlineStyle(property, in: style, lowered: Matching.lowered(style))
    }

    /// `inlineStyle` over a style attribute already read (and lowercased, for the quick test).
    static func inlineStyle(_ property: String, in style: String, lowered: [UInt8]) -> String? {
        let wanted = Array(property.utf8)
        guard Matching.find(lowered, wanted, from: 0) != nil else { return nil }
        // Declarations split on ";" and ":" bytes; a name is compared on the lowered bytes
        // (trimmed of ASCII space), and only a non-ASCII name is trimmed as a string.
        let bytes = Array(style.utf8)
        var found: String?
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x3B { end += 1 }
            if let colon = bytes[start..<end].firstIndex(of: 0x3A) {
                var nameStart = start, nameEnd = colon
                while nameStart < nameEnd && JSString.isASCIISpace(lowered[nameStart]) { nameStart += 1 }
                while nameEnd > nameStart && JSString.isASCIISpace(lowered[nameEnd - 1]) { nameEnd -= 1 }
                let matches: Bool
                if lowered[nameStart..<nameEnd].contains(where: { $0 >= 0x80 }) {
                    matches = JSString.trim(String(decoding: bytes[start..<colon], as: UTF8.self)).lowercased() == property
                } else {
                    matches = lowered[nameStart..<nameEnd].elementsEqual(wanted)
                }
                if matches {
                    var value = JSString.trim(String(decoding: bytes[(colon + 1)..<end], as: UTF8.self)).lowercased()
                    if let bang = value.range(of: "!important") { value = JSString.trim(String(value[..<bang.lowerBound])) }
                    found = value
                }
            }
            start = end + 1
        }
        return found
    }
}

/// Elements under `root` (not `root` itself) whose local name is one of `names`, in document
/// order: `_getAllNodesWithTag` / `getElementsByTagName`.
func elements(_ root: Node, _ names: String...) -> [Node] {
    elements(root, names)
}

func elements(_ root: Node, _ names: [String]) -> [Node] {
    root.descendantElements(named: names)
}

/// Number of elements under `root` with one of `names`.
func countElements(_ root: Node, _ names: String...) -> Int {
    root.countDescendantElements(named: names)
}

extension Readability {
    /// `_getNextNode`: depth-first traversal over elements.
    func getNextNode(_ node: Node, ignoreSelfAndKids: Bool = false) -> Node? {
        if !ignoreSelfAndKids, let child = node.firstElementChild { return child }
        if let sibling = node.nextElementSibling { return sibling }
        var current: Node? = node
        repeat {
            current = current?.parent
        } while current != nil && current?.nextElementSibling == nil
        return current?.nextElementSibling
    }

    /// `_removeAndGetNext`.
    func removeAndGetNext(_ node: Node) -> Node? {
        let next = getNextNode(node, ignoreSelfAndKids: true)
        node.remove()
        return next
    }

    /// `_setNodeTag`: renames, carrying the score along.
    @discardableResult
    func setNodeTag(_ node: Node, _ tag: String) -> Node {
        let renamed = node.rename(to: tag)
        if renamed != node, let score = scores[node.index] { scores[renamed.index] = score }
        return renamed
    }

    /// `_getInnerText`.
    func getInnerText(_ node: Node, normalizeSpaces: Bool = true) -> String {
        JSString.innerText(node.textContent, normalizeSpaces: normalizeSpaces)
    }

    /// `_getNodeAncestors`.
    func getNodeAncestors(_ node: Node, maxDepth: Int = 0) -> [Node] {
        var ancestors: [Node] = []
        var current = node
        while let parent = current.parent {
            ancestors.append(parent)
            if maxDepth > 0 && ancestors.count == maxDepth { break }
            current = parent
        }
        return ancestors
    }

    /// `_hasAncestorTag`: maxDepth 3 by default; a negative depth means unlimited.
    func hasAncestorTag(_ node: Node, _ tag: String, maxDepth: Int = 3, filter: ((Node) -> Bool)? = nil) -> Bool {
        var depth = 0
        var current = node
        while let parent = current.parent {
            if maxDepth > 0 && depth > maxDepth { return false }
            if parent.isHTML(tag) && (filter?(parent) ?? true) { return true }
            current = parent
            depth += 1
        }
        return false
    }

    /// `_nextNode`: skips whitespace-only non-element nodes.
    func nextNode(_ node: Node?) -> Node? {
        var next = node
        while let n = next, !n.isElement, JSString.isBlank(n.textContent) {
            next = n.nextSibling
        }
        return next
    }

    /// `_isPhrasingContent` (iterative: <ins>/<del> may nest very deeply).
    func isPhrasingContent(_ node: Node) -> Bool {
        // A text node or a phrasing element, as nearly every node asked about is, answers
        // without the walk (and its array).
        if node.isText { return true }
        guard node.isElement, node.namespace == .html else { return false }
        let name = node.localNameID
        if Readability.phrasingTags.contains(name) { return true }
        guard name == TagID.a || name == TagID.del || name == TagID.ins else { return false }
        var stack = [node]
        while let n = stack.popLast() {
            if n.isText { continue }
            guard n.isElement, n.namespace == .html else { return false }
            let name = n.localNameID
            if Readability.phrasingTags.contains(name) { continue }
            guard name == TagID.a || name == TagID.del || name == TagID.ins else { return false }
            var child = n.firstChild
            while let c = child {
                stack.append(c)
                child = c.nextSibling
            }
        }
        return true
    }

    static let phrasingTags = TagSet(Array(phrasingElems))
    static let phrasingElems: Set<String> = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn",
        "em", "embed", "i", "img", "input", "kbd", "label", "mark", "math", "meter", "noscript",
        "object", "output", "progress", "q", "ruby", "samp", "script", "select", "small", "span",
        "strong", "sub", "sup", "textarea", "time", "var", "wbr",
    ]

    static let divToPElems: Set<String> = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
    static let divToPTags = TagSet(Array(divToPElems))

    /// `_isWhitespace`.
    /// `isPhrasingContent` of node `index`: text and phrasing elements answer by index.
    func isPhrasingContent(at index: Int32, in document: Document) -> Bool {
        switch document.kind(at: index) {
        case .text: return true
        case .element:
            guard document.namespace(at: index) == .html else { return false }
            let name = document.nameID(at: index)
            if Readability.phrasingTags.contains(name) { return true }
            guard name == TagID.a || name == TagID.del || name == TagID.ins else { return false }
            return isPhrasingContent(document.node(at: index))
        default: return false
        }
    }

    /// `isWhitespace` of node `index`.
    func isWhitespace(at index: Int32, in document: Document) -> Bool {
        switch document.kind(at: index) {
        case .text: return !Readability.hasNonSpace(document.text(at: index))
        case .element: return document.namespace(at: index) == .html && document.nameID(at: index) == TagID.br
        default: return false
        }
    }

    func isWhitespace(_ node: Node) -> Bool {
        if node.isText { return !Readability.hasNonSpace(node.data) }
        return node.isElement && node.isHTML("br")
    }

    /// `_hasSingleTagInsideElement`.
    func hasSingleTagInsideElement(_ element: Node, _ tag: String) -> Bool {
        guard element.childElementCount == 1, let only = element.firstElementChild, only.isHTML(tag) else { return false }
        var child = element.firstChild
        while let c = child {
            if c.isText && JSString.endsWithNonSpace(c.data) { return false }
            child = c.nextSibling
        }
        return true
    }

    /// `_isElementWithoutContent`.
    func isElementWithoutContent(_ node: Node) -> Bool {
        guard node.isElement, !hasNonSpaceText(node) else { return false }
        let count = node.childElementCount
        if count == 0 { return true }
        // `countElements(node, "br", "hr")`, comparing name numbers, by index.
        let doc = node.document, top = node.index
        var breaks = 0
        var n = doc.nextInTree(after: top, within: top)
        while n >= 0 {
            let name = doc.nameID(at: n)
            if name == TagID.br || name == TagID.hr { breaks += 1 }
            n = doc.nextInTree(after: n, within: top)
        }
        return count == breaks
    }

    /// `_hasChildBlockElement`.
    func hasChildBlockElement(_ element: Node) -> Bool {
        let doc = element.document, top = element.index
        var n = doc.nextInTree(after: top, within: top)
        while n >= 0 {
            if doc.kind(at: n) == .element && doc.namespace(at: n) == .html
                && Readability.divToPTags.contains(doc.nameID(at: n)) { return true }
            n = doc.nextInTree(after: n, within: top)
        }
        return false
    }

    /// `_textSimilarity`: 1 = same words, 0 = nothing in common.
    func textSimilarity(_ a: String, _ b: String) -> Double {
        let tokensA = JSString.tokenize(a)
        return tokensA.isEmpty ? 0 : Readability.similarity(of: b, to: Set(tokensA))
    }

    /// `textSimilarity(articleTitle, b)`, the title's words found once per title (every h1
    /// and h2 of every pass is weighed against it).
    func titleSimilarity(_ b: String) -> Double {
        if titleWords?.title != articleTitle {
            let tokens = JSString.tokenize(articleTitle)
            titleWords = (articleTitle, tokens.isEmpty ? nil : Set(tokens))
        }
        guard let words = titleWords?.words else { return 0 }
        return Readability.similarity(of: b, to: words)
    }

    /// `_textSimilarity`'s measure of `b` against the words of `a`: the share of `b`'s words,
    /// joined by spaces, that `a` also has. (The joined lengths are summed, not built.)
    static func similarity(of b: String, to wordsA: Set<String>) -> Double {
        let tokensB = JSString.tokenize(b)
        if tokensB.isEmpty { return 0 }
        var all = tokensB.count - 1, unique = 0, uniqueCount = 0
        for token in tokensB {
            let n = token.utf16.count
            all += n
            if !wordsA.contains(token) {
                unique += n
                uniqueCount += 1
            }
        }
        if uniqueCount > 0 { unique += uniqueCount - 1 }
        return 1 - Double(unique) / Double(all)
    }
}
