// § 13.2.6.4.13-15: "in table body", "in row", "in cell".

extension TreeBuilder {
    func clearStackBackToTableBodyContext() {
        while let node = stack.last, namespace(node) != .html || ![Tag.tbody, Tag.tfoot, Tag.thead, Tag.template, Tag.html].contains(name(node)) {
            stack.removeLast()
        }
    }

    func clearStackBackToTableRowContext() {
        while let node = stack.last, !(isHTML(node, Tag.tr) || isHTML(node, Tag.template) || isHTML(node, Tag.html)) {
            stack.removeLast()
        }
    }

    static func isTableSection(_ t: Int32) -> Bool { t == Tag.tbody || t == Tag.thead || t == Tag.tfoot }

    // § 13.2.6.4.13 The "in table body" insertion mode
    func inTableBody(_ token: Token) -> Step {
        switch token {
        case let .startTag(tag):
            switch tag.nameID {
            case Tag.tr:
                clearStackBackToTableBodyContext()
                insertElement(tag)
                mode = .inRow
                return .done
            case Tag.th, Tag.td:
                clearStackBackToTableBodyContext()
                insertElement(named: "tr")
                return .reprocess(.inRow)
            case Tag.caption, Tag.col, Tag.colgroup, Tag.tbody, Tag.tfoot, Tag.thead:
                return closeTableSection()
            default:
                return inTable(token)
            }
        case let .endTag(tag):
            let t = tag.nameID
            switch t {
            case Tag.tbody, Tag.tfoot, Tag.thead:
                guard inScope(t, .table) else { return .done }
                clearStackBackToTableBodyContext()
                stack.removeLast()
                mode = .inTable
                return .done
            case Tag.table:
                return closeTableSection()
            case Tag.body, Tag.caption, Tag.col, Tag.colgroup, Tag.html, Tag.td, Tag.th, Tag.tr:
                return .done
            default:
                return inTable(token)
            }
        default:
            return inTable(token)
        }
    }

    private func closeTableSection() -> Step {
        guard inScope(where: TreeBuilder.isTableSection, .table) else { return .done }
        clearStackBackToTableBodyContext()
        stack.removeLast()
        return .reprocess(.inTable)
    }

    // § 13.2.6.4.14 The "in row" insertion mode
    func inRow(_ token: Token) -> Step {
        switch token {
        case let .startTag(tag):
            switch tag.nameID {
            case Tag.th, Tag.td:
                clearStackBackToTableRowContext()
                insertElement(tag)
                mode = .inCell
                pushMarker()
                return .done
            case Tag.caption, Tag.col, Tag.colgroup, Tag.tbody, Tag.tfoot, Tag.thead, Tag.tr:
                return closeRow() ? .reprocess(.inTableBody) : .done
            default:
                return inTable(token)
            }
        case let .endTag(tag):
            let t = tag.nameID
            switch t {
            case Tag.tr:
                _ = closeRow()
                return .done
            case Tag.table:
                return closeRow() ? .reprocess(.inTableBody) : .done
            case Tag.tbody, Tag.tfoot, Tag.thead:
                guard inScope(t, .table) else { return .done }
                return closeRow() ? .reprocess(.inTableBody) : .done
            case Tag.body, Tag.caption, Tag.col, Tag.colgroup, Tag.html, Tag.td, Tag.th:
                return .done
            default:
                return inTable(token)
            }
        default:
            return inTable(token)
        }
    }

    /// Pops the row; false when no tr is in table scope (token ignored).
    private func closeRow() -> Bool {
        guard inScope(Tag.tr, .table) else { return false }
        clearStackBackToTableRowContext()
        stack.removeLast()
        mode = .inTableBody
        return true
    }

    // § 13.2.6.4.15 The "in cell" insertion mode
    func inCell(_ token: Token) -> Step {
        switch token {
        case let .endTag(tag):
            let t = tag.nameID
            switch t {
            case Tag.td, Tag.th:
                guard inScope(t, .table) else { return .done }
                generateImpliedEndTags()
                popUntil(t)
                clearFormattingToLastMarker()
                mode = .inRow
                return .done
            case Tag.body, Tag.caption, Tag.col, Tag.colgroup, Tag.html:
                return .done
            case Tag.table, Tag.tbody, Tag.tfoot, Tag.thead, Tag.tr:
                guard inScope(t, .table) else { return .done }
                closeCell()
                return .reprocess(.inRow)
            default:
                return inBody(token)
            }
        case let .startTag(tag):
            switch tag.nameID {
            case Tag.caption, Tag.col, Tag.colgroup, Tag.tbody, Tag.td, Tag.tfoot, Tag.th, Tag.thead, Tag.tr:
                guard inScope(where: { $0 == Tag.td || $0 == Tag.th }, .table) else { return .done }
                closeCell()
                return .reprocess(.inRow)
            default:
                return inBody(token)
            }
        default:
            return inBody(token)
        }
    }

    private func closeCell() {
        generateImpliedEndTags()
        popUntil(where: { $0 == Tag.td || $0 == Tag.th })
        clearFormattingToLastMarker()
        mode = .inRow
    }
}
