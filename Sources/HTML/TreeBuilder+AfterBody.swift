// § 13.2.6.4 "after body", "in frameset", "after frameset", "after after body",
// "after after frameset".

extension TreeBuilder {
    /// Keeps only the ASCII whitespace of a run (the frameset modes ignore everything else).
    private func whitespaceOnly(_ s: String) -> String {
        s.isAllASCIIWhitespace ? s : String(decoding: s.utf8.filter(isASCIIWhitespace), as: UTF8.self)
    }

    // § 13.2.6.4.17 The "after body" insertion mode (#parsing-main-afterbody)
    func afterBody(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            let (space, rest) = s.splitLeadingWhitespace()
            if !space.isEmpty { _ = inBody(.characters(String(Substring(space)))) }
            if rest.isEmpty { return .done }
            return .reprocessRest(.characters(String(Substring(rest))), .inBody)
        case let .comment(data):
            if let html = stack.first { insertComment(data, into: html) }
            return .done
        case .doctype:
            return .done
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case let .endTag(tag) where tag.name == "html":
            if contextElement >= 0 { return .done }
            mode = .afterAfterBody
            return .done
        case .eof:
            return stopParsing()
        default:
            return .reprocess(.inBody)
        }
    }

    // § 13.2.6.4.18 The "in frameset" insertion mode (#parsing-main-inframeset)
    func inFrameset(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            insertCharacters(whitespaceOnly(s))
        case let .comment(data):
            insertComment(data)
        case .doctype:
            break
        case let .startTag(tag):
            switch tag.name {
            case "html": return inBody(token)
            case "frameset": insertElement(tag)
            case "frame": insertVoidElement(tag)
            case "noframes": return inHead(token)
            default: break
            }
        case let .endTag(tag):
            if tag.name == "frameset" {
                if stack.count == 1 && isHTML(currentNode, Tag.html) { return .done }
                stack.removeLast()
                if contextElement < 0 && !currentIs(Tag.frameset) { mode = .afterFrameset }
            }
        case .eof:
            return stopParsing()
        }
        return .done
    }

    // § 13.2.6.4.19 The "after frameset" insertion mode (#parsing-main-afterframeset)
    func afterFrameset(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            insertCharacters(whitespaceOnly(s))
        case let .comment(data):
            insertComment(data)
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case let .startTag(tag) where tag.name == "noframes":
            return inHead(token)
        case let .endTag(tag) where tag.name == "html":
            mode = .afterAfterFrameset
        case .eof:
            return stopParsing()
        default:
            break
        }
        return .done
    }

    // § 13.2.6.4.20 The "after after body" insertion mode
    func afterAfterBody(_ token: Token) -> Step {
        switch token {
        case let .comment(data):
            insertComment(data, into: 0)
            return .done
        case .doctype:
            return inBody(token)
        case let .characters(s):
            let (space, rest) = s.splitLeadingWhitespace()
            if !space.isEmpty { _ = inBody(.characters(String(Substring(space)))) }
            if rest.isEmpty { return .done }
            return .reprocessRest(.characters(String(Substring(rest))), .inBody)
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case .eof:
            return stopParsing()
        default:
            return .reprocess(.inBody)
        }
    }

    // § 13.2.6.4.21 The "after after frameset" insertion mode
    func afterAfterFrameset(_ token: Token) -> Step {
        switch token {
        case let .comment(data):
            insertComment(data, into: 0)
        case .doctype:
            return inBody(token)
        case let .characters(s):
            let space = whitespaceOnly(s)
            if !space.isEmpty { _ = inBody(.characters(space)) }
        case let .startTag(tag) where tag.name == "html":
            return inBody(token)
        case let .startTag(tag) where tag.name == "noframes":
            return inHead(token)
        case .eof:
            return stopParsing()
        default:
            break
        }
        return .done
    }
}
