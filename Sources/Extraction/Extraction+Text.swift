// Block-aware text: the plain text of a container with line breaks where the markup has blocks.
// Headings, paragraphs, lists, tables, quotes and preformatted text end up on their own lines,
// paragraphs separated by a blank line; inline runs keep their spaces; <pre> keeps its lines.
import HTML

/// Tag-name sets as the parser's name numbers.
struct NameSet {
    private let ids: Set<Int32>

    init(_ names: [String]) {
        ids = Set(names.compactMap { Document.knownNameID($0) })
    }

    func contains(_ node: Node) -> Bool { ids.contains(node.localNameID) }
}

enum BlockText {
    /// Blocks that stand apart by a blank line.
    static let paragraphs = NameSet([
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl",
        "figure", "section", "article", "header", "footer", "aside", "nav", "main", "hr", "address",
        "details", "fieldset", "form", "hgroup",
    ])
    /// Blocks that start a new line.
    static let lines = NameSet([
        "div", "li", "tr", "dt", "dd", "figcaption", "caption", "summary", "legend", "option",
        "thead", "tbody", "tfoot", "center", "menu", "dir", "search", "label",
    ])
    /// Table cells: separated from their neighbours by a space.
    static let cells = NameSet(["td", "th"])
    /// Never text.
    static let skipped = NameSet(["script", "style", "noscript", "template", "head", "title", "svg", "math", "select", "button", "iframe", "object", "embed", "canvas", "audio", "video"])

    /// The text of `root`, skipping the subtrees `skip` returns true for.
    static func text(of root: Node, article: Bool = false, skip: (Node) -> Bool = { _ in false }) -> String {
        var out = Builder()
        walk(root, into: &out, inPre: false, skip: skip)
        let text = out.finish()
        return article ? withoutTrailingFurniture(text) : withoutRepeatedLines(text)
    }

    /// Drops the short blocks after the article's last paragraph of prose: the "more on this"
    /// heading and its teasers, rating and sharing prompts, tag and category lines.
    static func withoutTrailingFurniture(_ text: String) -> String {
        let blocks = text.components(separatedBy: "\n\n")
        guard let last = blocks.lastIndex(where: isProse), last < blocks.count - 1 else { return text }
        var kept = Array(blocks[...last])
        var dropped = 0
        for block in blocks[(last + 1)...] {
            if block.utf8.count >= 120 || endsSentence(block) { kept.append(block) } else { dropped += block.utf8.count }
        }
        // Short lines that are much of the text are the page's content (a service page's
        // contact lines, a shop's items), not furniture after an article.
        if dropped == 0 || Double(dropped) > 0.15 * Double(text.utf8.count) { return text }
        return kept.joined(separator: "\n\n")
    }

    /// Ends like a sentence (a closing quote or bracket after the stop is fine).
    static func endsSentence(_ block: String) -> Bool {
        var last = block.unicodeScalars.last
        var rest = block.unicodeScalars.dropLast()
        while let l = last, "\"'”’»)]".unicodeScalars.contains(l) { last = rest.last; rest = rest.dropLast() }
        guard let l = last else { return false }
        return ".!?…".unicodeScalars.contains(l)
    }

    /// A paragraph of sentences: long, with a sentence ending in it.
    static func isProse(_ block: String) -> Bool {
        guard block.utf8.count >= 150 else { return false }
        return block.contains(". ") || block.hasSuffix(".") || block.contains("? ") || block.contains("! ")
    }

    /// Drops a long line that repeats an earlier one word for word: threads and listings print
    /// some blocks twice (one copy for small screens, one for large), and a reader wants one.
    /// An article may repeat a paragraph on purpose, so its text is left alone.
    static func withoutRepeatedLines(_ text: String) -> String {
        var seen = Set<Substring>()
        var lines: [Substring] = []
        var dropped = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.utf8.count >= 60 {
                if seen.contains(line) {
                    dropped = true
                    // The blank line before a dropped paragraph goes with it.
                    if lines.last?.isEmpty == true { lines.removeLast() }
                    continue
                }
                seen.insert(line)
            }
            lines.append(line)
        }
        return dropped ? lines.joined(separator: "\n") : text
    }

    private static func walk(_ node: Node, into out: inout Builder, inPre: Bool, skip: (Node) -> Bool) {
        var child = node.firstChild
        while let c = child {
            defer { child = c.nextSibling }
            if c.isText {
                out.append(c.data, preformatted: inPre)
                continue
            }
            guard c.isElement, !skipped.contains(c), !skip(c) else { continue }
            if c.hasTag("br") { out.lineBreak(); continue }
            if c.hasTag("img") {
                continue
            }
            let pre = inPre || c.hasTag("pre") || c.hasTag("textarea")
            if paragraphs.contains(c) {
                out.blankLine()
                walk(c, into: &out, inPre: pre, skip: skip)
                out.blankLine()
            } else if lines.contains(c) {
                out.lineBreak()
                walk(c, into: &out, inPre: pre, skip: skip)
                out.lineBreak()
            } else if cells.contains(c) {
                out.space()
                walk(c, into: &out, inPre: pre, skip: skip)
                out.space()
            } else {
                walk(c, into: &out, inPre: pre, skip: skip)
            }
        }
    }

    /// Collects text with pending separators, so runs of breaks collapse to the strongest one.
    struct Builder {
        private var result = ""
        /// 0 none, 1 space, 2 line break, 3 blank line.
        private var pending = 0
        private var started = false

        mutating func space() { pending = max(pending, 1) }
        mutating func lineBreak() { pending = max(pending, 2) }
        mutating func blankLine() { pending = max(pending, 3) }

        mutating func append(_ text: String, preformatted: Bool) {
            if preformatted {
                var first = true
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if !first { lineBreak() }
                    first = false
                    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                    if !trimmed.isEmpty { emit(String(line.filter { $0 != "\r" })) }
                }
                return
            }
            var word = ""
            for scalar in text.unicodeScalars {
                if isSpace(scalar) {
                    if !word.isEmpty { emit(word); word = "" }
                    space()
                } else {
                    word.unicodeScalars.append(scalar)
                }
            }
            if !word.isEmpty { emit(word) }
        }

        private mutating func emit(_ piece: String) {
            if started {
                switch pending {
                case 1: result += " "
                case 2: result += "\n"
                case 3: result += "\n\n"
                default: break
                }
            }
            pending = 0
            started = true
            result += piece
        }

        func finish() -> String { result }

        private func isSpace(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
            default: return false
            }
        }
    }
}
