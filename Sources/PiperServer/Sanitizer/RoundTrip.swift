import HTML

/// Whether sanitized markup, read back by an HTML parser, would build a different tree than the
/// one it was written from. The parser builds trees markup cannot express (an `a` inside an `a`
/// from the adoption agency, a `div` inside a `p`, text inside a `table`); their serialisation
/// reads back restructured, so such output needs another sanitizing round to become a fixed point.
/// These checks follow the tree builder's "in body" and table rules for the elements the
/// sanitizer keeps; they may flag more than needed (another round only costs time), never less.
/// The element categories are HTML's (`HTMLElements`), so they cannot drift from the parser's.
/// Names are interned ids (`SanitizerNames`); the walk's stack of written elements holds ids.
enum RoundTrip {
    private typealias N = SanitizerNames

    /// Whether writing `<name>` with `open` (outermost first) on the stack reads back differently.
    static func startTagMoves(_ name: Int32, open: [Int32]) -> Bool {
        let current = open.last
        // Table parts must sit in their own parent, and a table part takes nothing else.
        if let parents = HTMLElements.tableParents(name) { return !(current.map(parents.contains) ?? false) }
        if let current, HTMLElements.isTableContainer(current) { return true }
        if HTMLElements.closesParagraph(name) && inScope(N.p, open) { return true }
        switch name {
        case N.a:
            return inScope(N.a, open)
        case N.li:
            return listItemOpen(N.li, N.li, open)
        case N.dd, N.dt:
            return listItemOpen(N.dd, N.dt, open)
        case N.rt, N.rp:
            guard let current else { return false }
            return current == N.rt || current == N.rp || current == N.p || current == N.li || current == N.dd || current == N.dt
        default:
            return HTMLElements.isHeading(name) && current.map(HTMLElements.isHeading) == true
        }
    }

    /// `startTagMoves` by names (names HTML does not know match no rule).
    static func startTagMoves(_ name: String, open: [String]) -> Bool {
        startTagMoves(N.id(name), open: open.map(N.id))
    }

    /// Whether text written with `open` on the stack is moved (foster-parented out of a table).
    static func textMoves(_ text: String, open: [Int32]) -> Bool {
        guard let current = open.last, HTMLElements.isTableContainer(current) else { return false }
        return text.utf8.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D) }
    }

    /// `textMoves` by names.
    static func textMoves(_ text: String, open: [String]) -> Bool {
        textMoves(text, open: open.map(N.id))
    }

    /// "has an element in button scope" over the written names (which are HTML names, or
    /// MathML names that HTML's button-scope list does not hold).
    private static func inScope(_ target: Int32, _ open: [Int32]) -> Bool {
        for name in open.reversed() {
            if name == target { return true }
            if HTMLElements.boundsButtonScope(name) { return false }
        }
        return false
    }

    private static let address = N.id("address"), div = N.id("div")

    /// The `li` / `dd`-`dt` start-tag scan: an open item (`item` or `other`) is closed unless a
    /// special element other than address, div and p stands between.
    private static func listItemOpen(_ item: Int32, _ other: Int32, _ open: [Int32]) -> Bool {
        for name in open.reversed() {
            if name == item || name == other { return true }
            if HTMLElements.isSpecial(name) && name != address && name != div && name != N.p { return false }
        }
        return false
    }
}
