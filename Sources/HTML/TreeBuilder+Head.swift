// § 13.2.6.4.1-6: "initial", "before html", "before head", "in head", "in head noscript",
// "after head".

extension TreeBuilder {
    // § 13.2.6.4.1 The "initial" insertion mode
    func initial(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            let (_, rest) = s.splitLeadingWhitespace()
            if rest.isEmpty { return .done }
            return initialAnythingElse(.characters(String(Substring(rest))))
        case let .comment(data):
            insertComment(data, into: 0)
            return .done
        case let .doctype(d):
            let node = document.newDoctype(d)
            document.link(node, appendTo: 0)
            document.quirksMode = QuirksDetection.mode(for: d)
            mode = .beforeHTML
            return .done
        default:
            return initialAnythingElse(token)
        }
    }

    private func initialAnythingElse(_ token: Token) -> Step {
        document.quirksMode = .quirks
        return .reprocessRest(token, .beforeHTML)
    }

    // § 13.2.6.4.2 The "before html" insertion mode
    func beforeHTML(_ token: Token) -> Step {
        switch token {
        case .doctype:
            return .done
        case let .comment(data):
            insertComment(data, into: 0)
            return .done
        case let .characters(s):
            let (_, rest) = s.splitLeadingWhitespace()
            if rest.isEmpty { return .done }
            return beforeHTMLAnythingElse(.characters(String(Substring(rest))))
        case let .startTag(tag) where tag.name == "html":
            let html = createElement(for: tag, in: .html)
            document.link(html, appendTo: 0)
            stack.append(html)
            mode = .beforeHead
            return .done
        case let .endTag(tag) where !["head", "body", "html", "br"].contains(tag.name):
            return .done
        default:
            return beforeHTMLAnythingElse(token)
        }
    }

    private func beforeHTMLAnythingElse(_ token: Token) -> Step {
        let html = document.newElement(Tag.html, .html, [])
        document.link(html, appendTo: 0)
        stack.append(html)
        return .reprocessRest(token, .beforeHead)
    }

    // § 13.2.6.4.3 The "before head" insertion mode
    func beforeHead(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            let (_, rest) = s.splitLeadingWhitespace()
            if rest.isEmpty { return .done }
            return beforeHeadAnythingElse(.characters(String(Substring(rest))))
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case let .startTag(tag) where tag.name == "head":
            headElement = insertElement(tag)
            mode = .inHead
            return .done
        case let .endTag(tag) where !["head", "body", "html", "br"].contains(tag.name):
            return .done
        default:
            return beforeHeadAnythingElse(token)
        }
    }

    private func beforeHeadAnythingElse(_ token: Token) -> Step {
        headElement = insertElement(named: "head")
        return .reprocessRest(token, .inHead)
    }

    // § 13.2.6.4.4 The "in head" insertion mode
    func inHead(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            guard let rest = insertLeadingWhitespace(s) else { return .done }
            return inHeadAnythingElse(rest)
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            switch tag.name {
            case "html":
                return inBody(token)
            case "base", "basefont", "bgsound", "link":
                insertVoidElement(tag)
                return .done
            case "meta":
                insertVoidElement(tag)
                if tentativeEncoding != nil { metaMayChangeEncoding(tag) }
                return .done
            case "title":
                return parseTextElement(tag, .rcdata)
            case "noscript" where scripting, "noframes", "style":
                return parseTextElement(tag, .rawtext)
            case "noscript":
                insertElement(tag)
                mode = .inHeadNoscript
                return .done
            case "script":
                return parseTextElement(tag, .scriptData)
            case "template":
                insertElement(tag)
                pushMarker()
                framesetOK = false
                mode = .inTemplate
                templateModes.append(.inTemplate)
                return .done
            case "head":
                return .done
            default:
                return inHeadAnythingElse(token)
            }
        case let .endTag(tag):
            switch tag.name {
            case "head":
                stack.removeLast()
                mode = .afterHead
                return .done
            case "body", "html", "br":
                return inHeadAnythingElse(token)
            case "template":
                return endTemplate()
            default:
                return .done
            }
        case .eof:
            return inHeadAnythingElse(token)
        }
    }

    /// The "in head" end tag "template" rule.
    func endTemplate() -> Step {
        guard stackContainsHTML(Tag.template) else { return .done }
        generateAllImpliedEndTagsThoroughly()
        popUntil(Tag.template)
        clearFormattingToLastMarker()
        _ = templateModes.popLast()
        resetInsertionMode()
        return .done
    }

    private func inHeadAnythingElse(_ token: Token) -> Step {
        stack.removeLast()
        return .reprocessRest(token, .afterHead)
    }

    // § 13.2.6.4.5 The "in head noscript" insertion mode
    func inHeadNoscript(_ token: Token) -> Step {
        switch token {
        case .doctype:
            return .done
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case let .endTag(tag) where tag.name == "noscript":
            stack.removeLast()
            mode = .inHead
            return .done
        case let .characters(s):
            let (space, rest) = s.splitLeadingWhitespace()
            if !space.isEmpty { _ = inHead(.characters(String(Substring(space)))) }
            if rest.isEmpty { return .done }
            return inHeadNoscriptAnythingElse(.characters(String(Substring(rest))))
        case .comment:
            return inHead(token)
        case let .startTag(tag) where ["basefont", "bgsound", "link", "meta", "noframes", "style"].contains(tag.name):
            return inHead(token)
        case let .startTag(tag) where tag.name == "head" || tag.name == "noscript":
            return .done
        case let .endTag(tag) where tag.name != "br":
            return .done
        default:
            return inHeadNoscriptAnythingElse(token)
        }
    }

    private func inHeadNoscriptAnythingElse(_ token: Token) -> Step {
        stack.removeLast()
        return .reprocessRest(token, .inHead)
    }

    // § 13.2.6.4.6 The "after head" insertion mode
    func afterHead(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            guard let rest = insertLeadingWhitespace(s) else { return .done }
            return afterHeadAnythingElse(rest)
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            switch tag.name {
            case "html":
                return inBody(token)
            case "body":
                insertElement(tag)
                framesetOK = false
                mode = .inBody
                return .done
            case "frameset":
                insertElement(tag)
                mode = .inFrameset
                return .done
            case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
                stack.append(headElement)
                let step = inHead(token)
                removeFromStack(headElement)
                return step
            case "head":
                return .done
            default:
                return afterHeadAnythingElse(token)
            }
        case let .endTag(tag):
            switch tag.name {
            case "template": return inHead(token)
            case "body", "html", "br": return afterHeadAnythingElse(token)
            default: return .done
            }
        case .eof:
            return afterHeadAnythingElse(token)
        }
    }

    private func afterHeadAnythingElse(_ token: Token) -> Step {
        insertElement(named: "body")
        return .reprocessRest(token, .inBody)
    }
}
