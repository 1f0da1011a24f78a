/// What survives sanitizing: an allow-list of article elements and attributes. Everything else
/// is either dropped with its contents (active or embedding content) or unwrapped (its children
/// kept, its tag gone).
enum SanitizerPolicy {
    enum Action: Equatable {
        /// Keep the element with its allowed attributes.
        case keep
        /// Drop the element and everything inside it.
        case drop
        /// Drop the tag, keep the children.
        case unwrap
    }

    static let kept: Set<String> = [
        // Text blocks and headings.
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "br", "wbr",
        "div", "span", "section", "article", "header", "footer", "aside", "address", "details", "summary",
        // Lists.
        "ul", "ol", "li", "dl", "dt", "dd",
        // Figures and media.
        "figure", "figcaption", "picture", "source", "img", "audio", "video",
        // Tables.
        "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td",
        // Inline formatting.
        "a", "b", "strong", "i", "em", "u", "s", "strike", "del", "ins", "mark", "small", "big",
        "sub", "sup", "abbr", "cite", "q", "code", "kbd", "samp", "var", "time", "dfn", "bdi", "bdo",
        "ruby", "rt", "rp", "tt",
    ]

    /// Active content, embedding, metadata and form controls: gone, contents and all.
    static let dropped: Set<String> = [
        "script", "style", "template", "iframe", "frame", "frameset", "object", "embed", "applet", "param",
        "noscript", "noembed", "noframes", "xmp", "plaintext",
        "meta", "base", "link", "title", "head",
        "input", "button", "select", "option", "optgroup", "textarea", "datalist", "output", "keygen",
        "canvas", "map", "area", "track", "slot", "portal", "dialog",
    ]

    /// Attributes kept on any kept element (values still checked where they hold URLs).
    static let attributes: Set<String> = [
        "href", "src", "srcset", "alt", "title", "width", "height", "colspan", "rowspan",
        "datetime", "lang", "dir",
    ]

    /// Extra, inert attributes `<source>` needs to choose among candidates.
    static let sourceAttributes: Set<String> = ["type", "media", "sizes"]

    static func action(forHTMLElement name: String) -> Action {
        if kept.contains(name) { return .keep }
        if dropped.contains(name) { return .drop }
        return .unwrap
    }

    /// The attribute's value as it should be written, or nil to drop the attribute.
    static func attributeValue(element: String, name: String, value: String) -> String? {
        attributeValue(element: SanitizerNames.id(element), name: name, value: value)
    }

    /// The same by the element's interned id (`SanitizerNames`). The names are matched by a
    /// switch (short names compare by their raw bits), not hashed into the sets above; a test
    /// holds the two to the same answers.
    static func attributeValue(element: Int32, name: String, value: String) -> String? {
        typealias N = SanitizerNames
        switch name {
        case "href":
            return element == N.a ? URLPolicy.safeLink(value) : nil
        case "src":
            return element == N.img || element == N.source || element == N.audio || element == N.video
                ? URLPolicy.safeMedia(value, allowDataImage: element == N.img || element == N.source) : nil
        case "srcset":
            return element == N.img || element == N.source ? URLPolicy.safeSrcset(value) : nil
        case "alt", "title", "width", "height", "colspan", "rowspan", "datetime", "lang", "dir":
            return value
        case "type", "media", "sizes":
            return element == N.source ? value : nil
        default:
            return nil
        }
    }
}
