// § 13.2.6.4.9-12: "in table", "in table text", "in caption", "in column group", with foster
// parenting.

extension TreeBuilder {
    /// "clear the stack back to a table context".
    func clearStackBackToTableContext() {
        while let node = stack.last, !(isHTML(node, Tag.table) || isHTML(node, Tag.template) || isHTML(node, Tag.html)) {
            stack.removeLast()
        }
    }

    // § 13.2.6.4.9 The "in table" insertion mode
    func inTable(_ token: Token) -> Step {
        switch token {
        case .characters:
            let current = currentNode
            if namespace(current) == .html {
                switch name(current) {
                case Tag.table, Tag.tbody, Tag.template, Tag.tfoot, Tag.thead, Tag.tr:
                    pendingTableText.removeAll()
                    pendingTableTextHasNonSpace = false
                    originalMode = mode
                    return .reprocess(.inTableText)
                default:
                    break
                }
            }
            return inTableAnythingElse(token)
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            switch tag.nameID {
            case Tag.caption:
                clearStackBackToTableContext()
                pushMarker()
                insertElement(tag)
                mode = .inCaption
            case Tag.colgroup:
                clearStackBackToTableContext()
                insertElement(tag)
                mode = .inColumnGroup
            case Tag.col:
                clearStackBackToTableContext()
                insertElement(named: "colgroup")
                return .reprocess(.inColumnGroup)
            case Tag.tbody, Tag.tfoot, Tag.thead:
                clearStackBackToTableContext()
                insertElement(tag)
                mode = .inTableBody
            case Tag.td, Tag.th, Tag.tr:
                clearStackBackToTableContext()
                insertElement(named: "tbody")
                return .reprocess(.inTableBody)
            case Tag.table:
                guard inScope(Tag.table, .table) else { return .done }
                popUntil(Tag.table)
                resetInsertionMode()
                return .reprocess(mode)
            case Tag.style, Tag.script, Tag.template:
                return inHead(token)
            case Tag.input:
                guard asciiLowercased(tag.attribute("type") ?? "") == "hidden" else { return inTableAnythingElse(token) }
                insertVoidElement(tag)
            case Tag.form:
                if stackContainsHTML(Tag.template) || formElement >= 0 { return .done }
                formElement = insertElement(tag)
                stack.removeLast()
            default:
                return inTableAnythingElse(token)
            }
            return .done
        case let .endTag(tag):
            switch tag.nameID {
            case Tag.table:
                guard inScope(Tag.table, .table) else { return .done }
                popUntil(Tag.table)
                resetInsertionMode()
                return .done
            case Tag.body, Tag.caption, Tag.col, Tag.colgroup, Tag.html, Tag.tbody, Tag.td, Tag.tfoot, Tag.th,
                 Tag.thead, Tag.tr:
                return .done
            case Tag.template:
                return inHead(token)
            default:
                return inTableAnythingElse(token)
            }
        case .eof:
            return inBody(token)
        }
    }

    /// "in table" anything else: in body rules with foster parenting enabled.
    func inTableAnythingElse(_ token: Token) -> Step {
        fosterParenting = true
        let step = inBody(token)
        fosterParenting = false
        return step
    }

    // § 13.2.6.4.10 The "in table text" insertion mode
    func inTableText(_ token: Token) -> Step {
        if case let .characters(data) = token {
            if !data.isNullRun && !data.isEmpty {
                if !pendingTableTextHasNonSpace && !data.isAllASCIIWhitespace { pendingTableTextHasNonSpace = true }
                pendingTableText.append(data)
            }
            return .done
        }
        let pending = pendingTableText.joined()
        pendingTableText.removeAll()
        if pendingTableTextHasNonSpace {
            _ = inTableAnythingElse(.characters(pending))
        } else {
            insertCharacters(pending)
        }
        pendingTableTextHasNonSpace = false
        return .reprocess(originalMode)
    }

    // § 13.2.6.4.11 The "in caption" insertion mode
    func inCaption(_ token: Token) -> Step {
        switch token {
        case let .endTag(tag) where tag.name == "caption":
            _ = closeCaption()
            return .done
        case let .startTag(tag) where ["caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"].contains(tag.name):
            return closeCaption() ? .reprocess(.inTable) : .done
        case let .endTag(tag) where tag.name == "table":
            return closeCaption() ? .reprocess(.inTable) : .done
        case let .endTag(tag) where ["body", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr"].contains(tag.name):
            return .done
        default:
            return inBody(token)
        }
    }

    /// Closes the caption; false when there is no caption in table scope (token ignored).
    private func closeCaption() -> Bool {
        guard inScope(Tag.caption, .table) else { return false }
        generateImpliedEndTags()
        popUntil(Tag.caption)
        clearFormattingToLastMarker()
        mode = .inTable
        return true
    }

    // § 13.2.6.4.12 The "in column group" insertion mode
    func inColumnGroup(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            guard let rest = insertLeadingWhitespace(s) else { return .done }
            return inColumnGroupAnythingElse(rest)
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            switch tag.name {
            case "html": return inBody(token)
            case "col":
                insertVoidElement(tag)
                return .done
            case "template": return inHead(token)
            default: return inColumnGroupAnythingElse(token)
            }
        case let .endTag(tag):
            switch tag.name {
            case "colgroup":
                guard currentIs(Tag.colgroup) else { return .done }
                stack.removeLast()
                mode = .inTable
                return .done
            case "col": return .done
            case "template": return inHead(token)
            default: return inColumnGroupAnythingElse(token)
            }
        case .eof:
            return inBody(token)
        }
    }

    private func inColumnGroupAnythingElse(_ token: Token) -> Step {
        guard currentIs(Tag.colgroup) else { return .done }
        stack.removeLast()
        return .reprocessRest(token, .inTable)
    }
}
