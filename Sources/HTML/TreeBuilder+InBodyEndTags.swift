// § 13.2.6.4.7 The "in body" insertion mode: end tags and "any other end tag".

extension TreeBuilder {
    func inBodyEndTag(_ tag: TagToken, _ token: Token) -> Step {
        let t = tag.nameID
        switch t {
        case Tag.template:
            return inHead(token)
        case Tag.body:
            guard inScope(Tag.body) else { return .done }
            mode = .afterBody
        case Tag.html:
            guard inScope(Tag.body) else { return .done }
            return .reprocess(.afterBody)
        case Tag.address, Tag.article, Tag.aside, Tag.blockquote, Tag.button, Tag.center, Tag.details, Tag.dialog,
             Tag.dir, Tag.div, Tag.dl, Tag.fieldset, Tag.figcaption, Tag.figure, Tag.footer, Tag.header, Tag.hgroup,
             Tag.listing, Tag.main, Tag.menu, Tag.nav, Tag.ol, Tag.pre, Tag.search, Tag.section, Tag.summary, Tag.ul,
             Tag.select:
            guard inScope(t) else { return .done }
            generateImpliedEndTags()
            popUntil(t)
        case Tag.form:
            if !stackContainsHTML(Tag.template) {
                let node = formElement
                formElement = -1
                guard node >= 0, nodeInScope(node) else { return .done }
                generateImpliedEndTags()
                removeFromStack(node)
            } else {
                guard inScope(Tag.form) else { return .done }
                generateImpliedEndTags()
                popUntil(Tag.form)
            }
        case Tag.p:
            if !inScope(Tag.p, .button) { insertElement(named: "p") }
            closePElement()
        case Tag.li:
            guard inScope(Tag.li, .listItem) else { return .done }
            generateImpliedEndTags(except: Tag.li)
            popUntil(Tag.li)
        case Tag.dd, Tag.dt:
            guard inScope(t) else { return .done }
            generateImpliedEndTags(except: t)
            popUntil(t)
        case Tag.h1, Tag.h2, Tag.h3, Tag.h4, Tag.h5, Tag.h6:
            guard inScope(where: HTMLElements.isHeading) else { return .done }
            generateImpliedEndTags()
            popUntil(where: HTMLElements.isHeading)
        case Tag.a, Tag.b, Tag.big, Tag.code, Tag.em, Tag.font, Tag.i, Tag.nobr, Tag.s, Tag.small, Tag.strike,
             Tag.strong, Tag.tt, Tag.u:
            if !adoptionAgency(t) { anyOtherEndTag(t) }
        case Tag.applet, Tag.marquee, Tag.object:
            guard inScope(t) else { return .done }
            generateImpliedEndTags()
            popUntil(t)
            clearFormattingToLastMarker()
        case Tag.br:
            return inBody(.startTag(TagToken(name: "br")))
        default:
            // A name no element in this document has cannot match anything on the stack: the
            // "any other end tag" walk would stop at a special element and ignore the token.
            guard let id = t >= 0 ? t : document.existingNameID(tag.name) else { return .done }
            anyOtherEndTag(id)
        }
        return .done
    }

    /// "Any other end tag" in "in body".
    func anyOtherEndTag(_ tag: Int32) {
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if isHTML(node, tag) {
                generateImpliedEndTags(except: tag)
                stack.removeSubrange(i...)
                return
            }
            if isSpecial(node) { return }
            i -= 1
        }
    }

    // § 13.2.6.4.8 The "text" insertion mode
    func text(_ token: Token) -> Step {
        switch token {
        case let .characters(s):
            insertCharacters(s)
            return .done
        case .eof:
            stack.removeLast()
            return .reprocess(originalMode)
        case .endTag:
            stack.removeLast()
            mode = originalMode
            return .done
        default:
            return .done
        }
    }
}
