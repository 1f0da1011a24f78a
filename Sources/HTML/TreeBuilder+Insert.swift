// § 13.2.6.1 Creating and inserting nodes: the appropriate place (with foster parenting),
// elements for tokens, characters and comments.

extension TreeBuilder {
    /// § 13.2.6.1 "appropriate place for inserting a node": (parent, before) where before = -1
    /// means "append".
    func appropriatePlace(overrideTarget: Int32 = -1) -> (Int32, Int32) {
        let target = overrideTarget >= 0 ? overrideTarget : currentNode
        var place: (Int32, Int32) = (target, -1)
        if fosterParenting && namespace(target) == .html {
            switch name(target) {
            case Tag.table, Tag.tbody, Tag.tfoot, Tag.thead, Tag.tr:
                place = fosterParentPlace()
            default:
                break
            }
        }
        if isHTML(place.0, Tag.template), let content = document.templateContents[place.0] {
            return (content, -1)
        }
        return place
    }

    private func fosterParentPlace() -> (Int32, Int32) {
        let lastTemplate = stack.lastIndex { isHTML($0, Tag.template) }
        let lastTable = stack.lastIndex { isHTML($0, Tag.table) }
        if let t = lastTemplate, t > (lastTable ?? -1) {
            return (stack[t], -1)
        }
        guard let tableIndex = lastTable else { return (stack[0], -1) }
        let table = stack[tableIndex]
        let parent = document.nodes[Int(table)].parent
        if parent >= 0 { return (parent, table) }
        return (stack[tableIndex - 1], -1)
    }

    /// Creates an element for a token in `ns` (§ 13.2.6.1 "create an element for a token").
    func createElement(for tag: TagToken, in ns: Namespace) -> Int32 {
        switch ns {
        case .html:
            return document.newElement(tag.nameID >= 0 ? tag.nameID : document.intern(tag.name), .html, tag.attributes)
        case .svg:
            let name = Foreign.svgTagNames[tag.name] ?? tag.name
            return document.newElement(document.intern(name), .svg, Foreign.adjustSVGAttributes(tag.attributes))
        default:
            return document.newElement(tag.nameID >= 0 ? tag.nameID : document.intern(tag.name), ns, Foreign.adjustMathMLAttributes(tag.attributes))
        }
    }

    /// § 13.2.6.1 "insert a foreign element" / "insert an HTML element": create, insert at the
    /// appropriate place, push onto the stack. Returns the element.
    @discardableResult
    func insertElement(_ tag: TagToken, in ns: Namespace = .html) -> Int32 {
        let (parent, before) = appropriatePlace()
        let element = createElement(for: tag, in: ns)
        insert(element, into: parent, before: before)
        stack.append(element)
        return element
    }

    /// Inserts an HTML element and pops it at once (void elements).
    func insertVoidElement(_ tag: TagToken) {
        insertElement(tag)
        stack.removeLast()
    }

    /// Inserts an element for a tag with no attributes (e.g. the implied `html`, `head`, `p`).
    @discardableResult
    func insertElement(named tag: String) -> Int32 {
        insertElement(TagToken(name: tag))
    }

    func insert(_ node: Int32, into parent: Int32, before: Int32) {
        // A document has at most one element child (the fragment and after-body cases never
        // get here with a second one, but stay safe).
        if document.nodes[Int(parent)].kind == .document && document.nodes[Int(node)].kind == .element {
            var c = document.nodes[Int(parent)].firstChild
            while c >= 0 {
                if document.nodes[Int(c)].kind == .element { return }
                c = document.nodes[Int(c)].next
            }
        }
        document.link(node, into: parent, before: before)
    }

    /// § 13.2.6.1 "insert a character" for a whole run.
    func insertCharacters(_ data: String) {
        guard !data.isEmpty else { return }
        let (parent, before) = appropriatePlace()
        if document.nodes[Int(parent)].kind == .document { return }
        let previous = before >= 0 ? document.nodes[Int(before)].previous : document.nodes[Int(parent)].lastChild
        if previous >= 0 && document.nodes[Int(previous)].kind == .text {
            if document.nodes[Int(previous)].name < -1 { _ = document.materializeRawText(previous) }
            document.strings[Int(document.nodes[Int(previous)].payload)].append(data)
            return
        }
        document.link(document.newCharacterData(.text, data), into: parent, before: before)
    }

    /// "Insert a character" for a script's or raw-text element's whole text, in the "text"
    /// insertion mode: the bytes are kept as they are until something reads them.
    func insertRawText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        let (parent, before) = appropriatePlace()
        if document.nodes[Int(parent)].kind == .document { return }
        let previous = before >= 0 ? document.nodes[Int(before)].previous : document.nodes[Int(parent)].lastChild
        if previous >= 0 && document.nodes[Int(previous)].kind == .text {
            if document.nodes[Int(previous)].name < -1 {
                document.rawTexts[Int(-2 - document.nodes[Int(previous)].name)].append(contentsOf: bytes)
            } else {
                document.strings[Int(document.nodes[Int(previous)].payload)].append(String(decoding: bytes, as: UTF8.self))
            }
            return
        }
        document.link(document.newRawText(Array(bytes)), into: parent, before: before)
    }

    func insertCharacters(_ data: Substring.UTF8View) {
        insertCharacters(String(Substring(data)))
    }

    /// The step several insertion modes share for a character run: insert its leading ASCII
    /// whitespace, and hand back the rest as a token for the mode's "anything else" branch
    /// (nil when the run was all whitespace).
    func insertLeadingWhitespace(_ s: String) -> Token? {
        let (space, rest) = s.splitLeadingWhitespace()
        insertCharacters(space)
        return rest.isEmpty ? nil : .characters(String(Substring(rest)))
    }

    /// § 13.2.6.1 "insert a comment", optionally at an explicit position (parent, append).
    func insertComment(_ data: String, into explicitParent: Int32 = -1) {
        let comment = document.newCharacterData(.comment, data)
        if explicitParent >= 0 {
            document.link(comment, appendTo: explicitParent)
        } else {
            let (parent, before) = appropriatePlace()
            document.link(comment, into: parent, before: before)
        }
    }

    /// The generic raw text / RCDATA element parsing algorithms (§ 13.2.6.2).
    func parseTextElement(_ tag: TagToken, _ state: TokenizerContentState) -> Step {
        insertElement(tag)
        switchTokenizer(state)
        originalMode = mode
        mode = .text
        return .done
    }
}
