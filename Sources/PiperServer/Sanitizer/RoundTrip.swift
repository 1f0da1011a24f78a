/// Whether sanitized markup, read back by an HTML parser, would build a different tree than the
/// one it was written from. The parser builds trees markup cannot express (an `a` inside an `a`
/// from the adoption agency, a `div` inside a `p`, text inside a `table`); their serialisation
/// reads back restructured, so such output needs another sanitizing round to become a fixed point.
/// These checks follow the tree builder's "in body" and table rules for the elements the
/// sanitizer keeps; they may flag more than needed (another round only costs time), never less.
enum RoundTrip {
    /// Start tags that close an open `p` in button scope.
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p",
        "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form",
        "li", "dd", "dt", "plaintext", "table", "hr", "xmp",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// The kept elements among the parser's "special" category (they stop the list-item scans).
    static let special: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "caption", "col", "colgroup", "dd", "details",
        "div", "dl", "dt", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "img", "li", "ol", "p", "pre", "section", "source", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "ul", "wbr",
    ]
    /// Kept elements that bound "button scope" (and, with markers, the formatting list).
    static let scopeBoundaries: Set<String> = ["caption", "table", "td", "th"]
    /// Where each table part may stand; anything else in a table part is moved by the parser.
    static let tableParent: [String: Set<String>] = [
        "caption": ["table"], "colgroup": ["table"], "tbody": ["table"], "thead": ["table"], "tfoot": ["table"],
        "col": ["colgroup"], "tr": ["tbody", "thead", "tfoot"], "td": ["tr"], "th": ["tr"],
    ]
    static let tableParts: Set<String> = ["table", "tbody", "thead", "tfoot", "tr", "colgroup"]

    /// Whether writing `<name>` with `open` (outermost first) on the stack reads back differently.
    static func startTagMoves(_ name: String, open: [String]) -> Bool {
        let current = open.last
        // Table parts must sit in their own parent, and a table part takes nothing else.
        if let parents = tableParent[name] { return !(current.map(parents.contains) ?? false) }
        if let current, tableParts.contains(current) { return true }
        if closesParagraph.contains(name) && inScope("p", open, boundaries: scopeBoundaries) { return true }
        switch name {
        case "a":
            return inScope("a", open, boundaries: scopeBoundaries)
        case "li":
            return listItemOpen(["li"], open)
        case "dd", "dt":
            return listItemOpen(["dd", "dt"], open)
        case "rt", "rp":
            return current.map { ["rt", "rp", "p", "li", "dd", "dt"].contains($0) } ?? false
        default:
            return headings.contains(name) && current.map(headings.contains) == true
        }
    }

    /// Whether text written with `open` on the stack is moved (foster-parented out of a table).
    static func textMoves(_ text: String, open: [String]) -> Bool {
        guard let current = open.last, tableParts.contains(current) else { return false }
        return text.utf8.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D) }
    }

    private static func inScope(_ target: String, _ open: [String], boundaries: Set<String>) -> Bool {
        for name in open.reversed() {
            if name == target { return true }
            if boundaries.contains(name) { return false }
        }
        return false
    }

    /// The `li` / `dd`-`dt` start-tag scan: an open item is closed unless a special element other
    /// than address, div and p stands between.
    private static func listItemOpen(_ items: Set<String>, _ open: [String]) -> Bool {
        for name in open.reversed() {
            if items.contains(name) { return true }
            if special.contains(name) && name != "address" && name != "div" && name != "p" { return false }
        }
        return false
    }
}
