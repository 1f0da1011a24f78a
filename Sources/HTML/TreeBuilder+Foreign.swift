// § 13.2.6 The tree construction dispatcher and § 13.2.6.5 "The rules for parsing tokens in
// foreign content" (SVG and MathML), with the integration points.

extension TreeBuilder {
    func isMathMLTextIntegrationPoint(_ node: Int32) -> Bool {
        guard namespace(node) == .mathml else { return false }
        switch name(node) {
        case Tag.mi, Tag.mo, Tag.mn, Tag.ms, Tag.mtext: return true
        default: return false
        }
    }

    func isHTMLIntegrationPoint(_ node: Int32) -> Bool {
        let r = document.nodes[Int(node)]
        switch r.namespace {
        case .svg:
            return r.name == Tag.foreignObject || r.name == Tag.desc || r.name == Tag.title
        case .mathml:
            guard r.name == Tag.annotationXml,
                  let encoding = Node(document, node).getAttribute("encoding").map(asciiLowercased) else { return false }
            return encoding == "text/html" || encoding == "application/xhtml+xml"
        default:
            return false
        }
    }

    /// § 13.2.6 Tree construction dispatcher: false = the current insertion mode's rules.
    /// The test runs for every token; nearly always the adjusted current node is an HTML
    /// element, and that answer is inlined into the dispatcher.
    @inline(__always) func useForeignContentRules(for token: Token) -> Bool {
        let node = adjustedCurrentNode
        guard node >= 0, namespace(node) != .html else { return false }
        return foreignContentRulesApply(to: token, node)
    }

    private func foreignContentRulesApply(to token: Token, _ node: Int32) -> Bool {
        switch token {
        case .eof:
            return false
        case let .startTag(tag):
            if isMathMLTextIntegrationPoint(node) && tag.name != "mglyph" && tag.name != "malignmark" { return false }
            if namespace(node) == .mathml && name(node) == Tag.annotationXml && tag.name == "svg" { return false }
            return !isHTMLIntegrationPoint(node)
        case .characters:
            return !(isMathMLTextIntegrationPoint(node) || isHTMLIntegrationPoint(node))
        default:
            return true
        }
    }

    /// Start tags that break out of foreign content.
    static let breakoutTags: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta",
        "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table",
        "tt", "u", "ul", "var",
    ]

    func foreignContent(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            if s.isNullRun {
                insertCharacters(String(repeating: "\u{FFFD}", count: s.utf8.count))
                return .done
            }
            if framesetOK && !s.isAllASCIIWhitespace { framesetOK = false }
            insertCharacters(s)
            return .done
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            let breaksOut = TreeBuilder.breakoutTags.contains(tag.name)
                || (tag.name == "font" && tag.attributes.contains { $0.name == "color" || $0.name == "face" || $0.name == "size" })
            if breaksOut { return breakOutOfForeignContent(token) }
            let ns = namespace(adjustedCurrentNode)
            insertElement(tag, in: ns)
            if tag.selfClosing { stack.removeLast() }
            return .done
        case let .endTag(tag):
            if tag.name == "br" || tag.name == "p" { return breakOutOfForeignContent(token) }
            if tag.name == "script" && namespace(currentNode) == .svg && name(currentNode) == Tag.script {
                stack.removeLast()
                return .done
            }
            return foreignEndTag(tag, token)
        case .eof:
            return rules(for: mode, token)
        }
    }

    /// Pops to an HTML element or integration point, then reprocesses the token with the
    /// current insertion mode's rules in HTML content (not through the dispatcher).
    private func breakOutOfForeignContent(_ token: Token) -> Step {
        while let node = stack.last, !(isMathMLTextIntegrationPoint(node) || isHTMLIntegrationPoint(node) || namespace(node) == .html) {
            stack.removeLast()
        }
        return rules(for: mode, token)
    }

    /// "Any other end tag" in foreign content.
    private func foreignEndTag(_ tag: TagToken, _ token: Token) -> Step {
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if i == 0 { return .done }
            if asciiLowercased(document.nameString(name(node))) == tag.name {
                stack.removeSubrange(i...)
                return .done
            }
            i -= 1
            if namespace(stack[i]) == .html {
                return rules(for: mode, token)
            }
        }
        return .done
    }
}
