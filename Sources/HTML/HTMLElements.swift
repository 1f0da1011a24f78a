// The spec's element categories for HTML-namespace elements, held once: the tree builder, the
// serializer, the backend's sanitizer and Readability all ask here. Each answers by interned
// name id (`Node.localNameID`) or by lowercased local name; a name HTML does not know belongs
// to none of them.

/// § 13.2.4.2 and § 13.3: which HTML elements are special, void, headings, scope boundaries,
/// and how the "in body" and table rules place them.
package enum HTMLElements {
    /// The number of names HTML interns; ids below it are the same in every document.
    package static var knownCount: Int32 { TagNames.knownCount }

    /// The interned id of a known lowercased local name.
    package static func id(_ name: String) -> Int32? { TagNames.lookup[name] }

    /// The name a known id stands for.
    package static func name(_ id: Int32) -> String? {
        id >= 0 && id < TagNames.knownCount ? TagNames.all[Int(id)] : nil
    }

    /// § 13.2.4.2 The "special" category (HTML namespace).
    @inline(__always) package static func isSpecial(_ id: Int32) -> Bool {
        id >= 0 && id < TagNames.knownCount && special[Int(id)]
    }

    /// § 13.1.2 Void elements: no end tag, no contents (the serializer writes no children).
    package static func isVoid(_ id: Int32) -> Bool {
        switch id {
        case Tag.area, Tag.base, Tag.basefont, Tag.bgsound, Tag.br, Tag.col, Tag.embed, Tag.frame,
             Tag.hr, Tag.img, Tag.input, Tag.keygen, Tag.link, Tag.meta, Tag.param, Tag.source,
             Tag.track, Tag.wbr:
            return true
        default:
            return false
        }
    }

    /// `h1` to `h6`.
    @inline(__always) package static func isHeading(_ id: Int32) -> Bool {
        id == Tag.h1 || id == Tag.h2 || id == Tag.h3 || id == Tag.h4 || id == Tag.h5 || id == Tag.h6
    }

    /// § 13.2.4.2 The HTML elements that bound "has an element in button scope" (the default
    /// scope's list plus `button`).
    package static func boundsButtonScope(_ id: Int32) -> Bool {
        switch id {
        case Tag.applet, Tag.caption, Tag.html, Tag.table, Tag.td, Tag.th, Tag.marquee, Tag.object,
             Tag.template, Tag.button:
            return true
        default:
            return false
        }
    }

    /// § 13.2.6.4.7 "in body": the start tags whose rule begins "if the stack of open elements
    /// has a p element in button scope, close a p element" (`table` only outside quirks mode).
    package static func closesParagraph(_ id: Int32) -> Bool {
        switch id {
        case Tag.address, Tag.article, Tag.aside, Tag.blockquote, Tag.center, Tag.details, Tag.dialog,
             Tag.dir, Tag.div, Tag.dl, Tag.fieldset, Tag.figcaption, Tag.figure, Tag.footer, Tag.header,
             Tag.hgroup, Tag.main, Tag.menu, Tag.nav, Tag.ol, Tag.p, Tag.search, Tag.section, Tag.summary,
             Tag.ul, Tag.h1, Tag.h2, Tag.h3, Tag.h4, Tag.h5, Tag.h6, Tag.pre, Tag.listing, Tag.form,
             Tag.li, Tag.dd, Tag.dt, Tag.plaintext, Tag.table, Tag.hr, Tag.xmp:
            return true
        default:
            return false
        }
    }

    /// § 13.2.6.4.9-15 The table insertion modes: the element a table part must be the child of
    /// to stay where it is written (`tr` in any row group), or nil for a name that is no table
    /// part. Written anywhere else, the parser moves it, adds an implied parent, or drops it.
    package static func tableParents(_ id: Int32) -> [Int32]? {
        switch id {
        case Tag.caption, Tag.colgroup, Tag.tbody, Tag.thead, Tag.tfoot: return [Tag.table]
        case Tag.col: return [Tag.colgroup]
        case Tag.tr: return [Tag.tbody, Tag.thead, Tag.tfoot]
        case Tag.td, Tag.th: return [Tag.tr]
        default: return nil
        }
    }

    /// The table parts whose insertion mode takes no other element or text as a child: anything
    /// else written inside one is foster-parented (or starts an implied part).
    package static func isTableContainer(_ id: Int32) -> Bool {
        id == Tag.table || id == Tag.tbody || id == Tag.thead || id == Tag.tfoot || id == Tag.tr || id == Tag.colgroup
    }

    private static let special: [Bool] = {
        var table = [Bool](repeating: false, count: Int(TagNames.knownCount))
        let names: [Int32] = [
            Tag.address, Tag.applet, Tag.area, Tag.article, Tag.aside, Tag.base, Tag.basefont, Tag.bgsound,
            Tag.blockquote, Tag.body, Tag.br, Tag.button, Tag.caption, Tag.center, Tag.col, Tag.colgroup,
            Tag.dd, Tag.details, Tag.dir, Tag.div, Tag.dl, Tag.dt, Tag.embed, Tag.fieldset, Tag.figcaption,
            Tag.figure, Tag.footer, Tag.form, Tag.frame, Tag.frameset, Tag.h1, Tag.h2, Tag.h3, Tag.h4, Tag.h5,
            Tag.h6, Tag.head, Tag.header, Tag.hgroup, Tag.hr, Tag.html, Tag.iframe, Tag.img, Tag.input,
            Tag.keygen, Tag.li, Tag.link, Tag.listing, Tag.main, Tag.marquee, Tag.menu, Tag.meta, Tag.nav,
            Tag.noembed, Tag.noframes, Tag.noscript, Tag.object, Tag.ol, Tag.p, Tag.param, Tag.plaintext,
            Tag.pre, Tag.script, Tag.search, Tag.section, Tag.select, Tag.source, Tag.style, Tag.summary,
            Tag.table, Tag.tbody, Tag.td, Tag.template, Tag.textarea, Tag.tfoot, Tag.th, Tag.thead,
            Tag.title, Tag.tr, Tag.track, Tag.ul, Tag.wbr, Tag.xmp,
        ]
        for n in names { table[Int(n)] = true }
        return table
    }()
}

extension HTMLElements {
    /// The same categories by lowercased local name (for code that holds names, not nodes).
    package static func isSpecial(_ name: String) -> Bool { id(name).map(isSpecial) ?? false }
    package static func isVoid(_ name: String) -> Bool { id(name).map(isVoid) ?? false }
    package static func isHeading(_ name: String) -> Bool { id(name).map(isHeading) ?? false }
    package static func boundsButtonScope(_ name: String) -> Bool { id(name).map(boundsButtonScope) ?? false }
    package static func closesParagraph(_ name: String) -> Bool { id(name).map(closesParagraph) ?? false }
    package static func isTableContainer(_ name: String) -> Bool { id(name).map(isTableContainer) ?? false }
    /// `tableParents` by name: the names of the parents a table part must stand in.
    package static func tableParents(_ name: String) -> [String]? {
        id(name).flatMap(tableParents).map { $0.map { TagNames.all[Int($0)] } }
    }
}
