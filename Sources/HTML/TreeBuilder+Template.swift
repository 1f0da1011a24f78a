// § 13.2.6.4 "in template" and § 13.2.4.1 "reset the insertion mode appropriately".

extension TreeBuilder {
    // § 13.2.6.4.16 The "in template" insertion mode (#parsing-main-intemplate)
    func inTemplate(_ token: Token) -> Step {
        switch token {
        case .characters, .comment, .doctype:
            return inBody(token)
        case let .startTag(tag):
            switch tag.nameID {
            case Tag.base, Tag.basefont, Tag.bgsound, Tag.link, Tag.meta, Tag.noframes, Tag.script, Tag.style,
                 Tag.template, Tag.title:
                return inHead(token)
            case Tag.caption, Tag.colgroup, Tag.tbody, Tag.tfoot, Tag.thead:
                return switchTemplateMode(.inTable)
            case Tag.col:
                return switchTemplateMode(.inColumnGroup)
            case Tag.tr:
                return switchTemplateMode(.inTableBody)
            case Tag.td, Tag.th:
                return switchTemplateMode(.inRow)
            default:
                return switchTemplateMode(.inBody)
            }
        case let .endTag(tag):
            return tag.name == "template" ? inHead(token) : .done
        case .eof:
            guard stackContainsHTML(Tag.template) else { return stopParsing() }
            popUntil(Tag.template)
            clearFormattingToLastMarker()
            _ = templateModes.popLast()
            resetInsertionMode()
            return .reprocess(mode)
        }
    }

    private func switchTemplateMode(_ next: InsertionMode) -> Step {
        _ = templateModes.popLast()
        templateModes.append(next)
        return .reprocess(next)
    }

    /// § 13.2.4.1 "reset the insertion mode appropriately" (without the removed select steps).
    func resetInsertionMode() {
        var i = stack.count - 1
        while i >= 0 {
            var node = stack[i]
            let last = i == 0
            if last && contextElement >= 0 { node = contextElement }
            if namespace(node) == .html {
                switch name(node) {
                case Tag.td where !last, Tag.th where !last:
                    mode = .inCell; return
                case Tag.tr: mode = .inRow; return
                case Tag.tbody, Tag.thead, Tag.tfoot: mode = .inTableBody; return
                case Tag.caption: mode = .inCaption; return
                case Tag.colgroup: mode = .inColumnGroup; return
                case Tag.table: mode = .inTable; return
                case Tag.template: mode = templateModes.last ?? .inBody; return
                case Tag.head where !last: mode = .inHead; return
                case Tag.body: mode = .inBody; return
                case Tag.frameset: mode = .inFrameset; return
                case Tag.html:
                    mode = headElement < 0 ? .beforeHead : .afterHead
                    return
                default: break
                }
            }
            if last { mode = .inBody; return }
            i -= 1
        }
        mode = .inBody
    }
}
