// § 13.2.6.4.7 The "in body" insertion mode: characters and start tags. End tags are in
// TreeBuilder+InBodyEndTags.swift.

extension TreeBuilder {
    @inline(__always) func knownID(_ name: String) -> Int32 { TagNames.lookup[name] ?? -1 }

    // § 13.2.6.4.7 The "in body" insertion mode
    func inBody(_ token: Token) -> Step {
        switch token {
        case let .characters(data):
            if data.isNullRun || data.isEmpty { return .done }
            reconstructFormatting()
            insertCharacters(data)
            if framesetOK && !data.isAllASCIIWhitespace { framesetOK = false }
            return .done
        case let .comment(data):
            insertComment(data)
            return .done
        case .doctype:
            return .done
        case let .startTag(tag):
            return inBodyStartTag(tag, token)
        case let .endTag(tag):
            return inBodyEndTag(tag, token)
        case .eof:
            if !templateModes.isEmpty { return inTemplate(token) }
            return stopParsing()
        }
    }

    /// "close a p element".
    func closePElement() {
        generateImpliedEndTags(except: Tag.p)
        popUntil(Tag.p)
    }

    func closePInButtonScope() {
        if inScope(Tag.p, .button) { closePElement() }
    }

    /// Adds the token's attributes that `element` lacks.
    func mergeAttributes(_ tag: TagToken, into element: Int32) {
        let node = Node(document, element)
        for attribute in tag.attributes where !node.hasAttribute(attribute.name) {
            node.setAttribute(attribute.name, attribute.value)
        }
    }

    var fragmentContextIsSelect: Bool { contextElement >= 0 && isHTML(contextElement, Tag.select) }

    private func inBodyStartTag(_ tag: TagToken, _ token: Token) -> Step {
        let t = tag.nameID
        switch t {
        case Tag.html:
            if !stackContainsHTML(Tag.template), let html = stack.first { mergeAttributes(tag, into: html) }
        case Tag.base, Tag.basefont, Tag.bgsound, Tag.link, Tag.meta, Tag.noframes, Tag.script, Tag.style,
             Tag.template, Tag.title:
            return inHead(token)
        case Tag.body:
            guard stack.count > 1, isHTML(stack[1], Tag.body), !stackContainsHTML(Tag.template) else { return .done }
            framesetOK = false
            mergeAttributes(tag, into: stack[1])
        case Tag.frameset:
            guard stack.count > 1, isHTML(stack[1], Tag.body), framesetOK else { return .done }
            document.unlink(stack[1])
            stack.removeSubrange(1...)
            insertElement(tag)
            mode = .inFrameset
        case Tag.address, Tag.article, Tag.aside, Tag.blockquote, Tag.center, Tag.details, Tag.dialog, Tag.dir,
             Tag.div, Tag.dl, Tag.fieldset, Tag.figcaption, Tag.figure, Tag.footer, Tag.header, Tag.hgroup,
             Tag.main, Tag.menu, Tag.nav, Tag.ol, Tag.p, Tag.search, Tag.section, Tag.summary, Tag.ul:
            closePInButtonScope()
            insertElement(tag)
        case Tag.h1, Tag.h2, Tag.h3, Tag.h4, Tag.h5, Tag.h6:
            closePInButtonScope()
            if namespace(currentNode) == .html && HTMLElements.isHeading(name(currentNode)) { stack.removeLast() }
            insertElement(tag)
        case Tag.pre, Tag.listing:
            closePInButtonScope()
            insertElement(tag)
            ignoreNextLineFeed = true
            framesetOK = false
        case Tag.form:
            let hasTemplate = stackContainsHTML(Tag.template)
            if formElement >= 0 && !hasTemplate { return .done }
            closePInButtonScope()
            let form = insertElement(tag)
            if !hasTemplate { formElement = form }
        case Tag.li:
            framesetOK = false
            closeListItem(matching: { $0 == Tag.li })
            closePInButtonScope()
            insertElement(tag)
        case Tag.dd, Tag.dt:
            framesetOK = false
            closeListItem(matching: { $0 == Tag.dd || $0 == Tag.dt })
            closePInButtonScope()
            insertElement(tag)
        case Tag.plaintext:
            closePInButtonScope()
            insertElement(tag)
            switchTokenizer(.plaintext)
        case Tag.button:
            if inScope(Tag.button) {
                generateImpliedEndTags()
                popUntil(Tag.button)
            }
            reconstructFormatting()
            insertElement(tag)
            framesetOK = false
        case Tag.a:
            if let a = formattingElementAfterLastMarker(Tag.a) {
                if !adoptionAgency(Tag.a) { anyOtherEndTag(Tag.a) }
                removeFormatting(a)
                removeFromStack(a)
            }
            reconstructFormatting()
            pushFormatting(insertElement(tag), tag)
        case Tag.b, Tag.big, Tag.code, Tag.em, Tag.font, Tag.i, Tag.s, Tag.small, Tag.strike, Tag.strong, Tag.tt, Tag.u:
            reconstructFormatting()
            pushFormatting(insertElement(tag), tag)
        case Tag.nobr:
            reconstructFormatting()
            if inScope(Tag.nobr) {
                if !adoptionAgency(Tag.nobr) { anyOtherEndTag(Tag.nobr) }
                reconstructFormatting()
            }
            pushFormatting(insertElement(tag), tag)
        case Tag.applet, Tag.marquee, Tag.object:
            reconstructFormatting()
            insertElement(tag)
            pushMarker()
            framesetOK = false
        case Tag.table:
            if document.quirksMode != .quirks { closePInButtonScope() }
            insertElement(tag)
            framesetOK = false
            mode = .inTable
        case Tag.area, Tag.br, Tag.embed, Tag.img, Tag.keygen, Tag.wbr:
            reconstructFormatting()
            insertVoidElement(tag)
            framesetOK = false
        case Tag.input:
            if fragmentContextIsSelect { return .done }
            if inScope(Tag.select) { popUntil(Tag.select) }
            reconstructFormatting()
            insertVoidElement(tag)
            if asciiLowercased(tag.attribute("type") ?? "") != "hidden" { framesetOK = false }
        case Tag.param, Tag.source, Tag.track:
            insertVoidElement(tag)
        case Tag.hr:
            closePInButtonScope()
            if inScope(Tag.select) { generateImpliedEndTags() }
            insertVoidElement(tag)
            framesetOK = false
        case Tag.image:
            var renamed = tag
            renamed.name = "img"
            return .reprocessRest(.startTag(renamed), mode)
        case Tag.textarea:
            insertElement(tag)
            ignoreNextLineFeed = true
            switchTokenizer(.rcdata)
            originalMode = mode
            framesetOK = false
            mode = .text
        case Tag.xmp:
            closePInButtonScope()
            reconstructFormatting()
            framesetOK = false
            return parseTextElement(tag, .rawtext)
        case Tag.iframe:
            framesetOK = false
            return parseTextElement(tag, .rawtext)
        case Tag.noembed:
            return parseTextElement(tag, .rawtext)
        case Tag.noscript where scripting:
            return parseTextElement(tag, .rawtext)
        case Tag.select:
            if fragmentContextIsSelect { return .done }
            if inScope(Tag.select) {
                popUntil(Tag.select)
            } else {
                reconstructFormatting()
                insertElement(tag)
                framesetOK = false
            }
        case Tag.option:
            if inScope(Tag.select) {
                generateImpliedEndTags(except: Tag.optgroup)
            } else if currentIs(Tag.option) {
                stack.removeLast()
            }
            reconstructFormatting()
            insertElement(tag)
        case Tag.optgroup:
            if inScope(Tag.select) {
                generateImpliedEndTags()
            } else if currentIs(Tag.option) {
                stack.removeLast()
            }
            reconstructFormatting()
            insertElement(tag)
        case Tag.rb, Tag.rtc:
            if inScope(Tag.ruby) { generateImpliedEndTags() }
            insertElement(tag)
        case Tag.rp, Tag.rt:
            if inScope(Tag.ruby) { generateImpliedEndTags(except: Tag.rtc) }
            insertElement(tag)
        case Tag.math:
            reconstructFormatting()
            insertElement(tag, in: .mathml)
            if tag.selfClosing { stack.removeLast() }
        case Tag.svg:
            reconstructFormatting()
            insertElement(tag, in: .svg)
            if tag.selfClosing { stack.removeLast() }
        case Tag.caption, Tag.col, Tag.colgroup, Tag.frame, Tag.head, Tag.tbody, Tag.td, Tag.tfoot, Tag.th,
             Tag.thead, Tag.tr:
            return .done
        default:
            reconstructFormatting()
            insertElement(tag)
        }
        return .done
    }

    /// The shared loop of the "li" and "dd"/"dt" start tag rules.
    private func closeListItem(matching tags: (Int32) -> Bool) {
        var i = stack.count - 1
        while i >= 0 {
            let node = stack[i]
            if namespace(node) == .html && tags(name(node)) {
                generateImpliedEndTags(except: name(node))
                popUntil(name(node))
                return
            }
            if isSpecial(node) && !(isHTML(node, Tag.address) || isHTML(node, Tag.div) || isHTML(node, Tag.p)) {
                return
            }
            i -= 1
        }
    }
}
