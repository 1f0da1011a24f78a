// Block-aware text: the plain text of a container with line breaks where the markup has blocks.
// Headings, paragraphs, lists, tables, quotes and preformatted text end up on their own lines,
// paragraphs separated by a blank line; inline runs keep their spaces; <pre> keeps its lines.
import HTML

enum BlockText {
    /// Blocks that stand apart by a blank line.
    static let paragraphs = NameSet(paragraphNames)
    static let paragraphNames = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl",
        "figure", "section", "article", "header", "footer", "aside", "nav", "main", "hr", "address",
        "details", "fieldset", "form", "hgroup",
    ]
    /// Blocks that start a new line.
    static let lines = NameSet(lineNames)
    static let lineNames = [
        "div", "li", "tr", "dt", "dd", "figcaption", "caption", "summary", "legend", "option",
        "thead", "tbody", "tfoot", "center", "menu", "dir", "search", "label",
    ]
    /// Table cells: separated from their neighbours by a space.
    static let cells = NameSet(["td", "th"])
    /// Never text.
    static let skipped = NameSet(["script", "style", "noscript", "template", "head", "title", "svg", "math", "select", "button", "iframe", "object", "embed", "canvas", "audio", "video"])

    /// The text of `root`, leaving out the subtrees of `skipped` (elements of `root`'s document).
    /// An article's text leaves out its trailing furniture (`trailingFurniture`), and so does
    /// `root`: the blocks are removed from the HTML too, so a reader shows what the text says.
    static func text(of root: Node, article: Bool = false, skipping skipped: Set<Node> = [], _ tuning: Tuning) -> String {
        // An article's walk notes each text node's block, to remove the blocks it drops.
        var out = Builder(locating: article)
        let walk = Walk(document: root.document, skipping: Set(skipped.map(\.index)))
        walk.walk(root.index, into: &out, inPre: false)
        let text = out.finish()
        guard article else { return withoutRepeatedLines(text, tuning) }
        let blocks = paragraphs(of: text)
        // The learned scorer's blocks too, when the tuning turns it on (it is off by default).
        let dropped = trailingFurniture(blocks, textLength: text.utf8.count, tuning)
            .union(repeatedBlocks(blocks, tuning))
            .union(BlockScorer.dropped(blocks, textLength: text.utf8.count, located: out.located, in: root, tuning))
        guard !dropped.isEmpty else { return text }
        remove(blocks: dropped, located: out.located, in: root)
        return blocks.indices.filter { !dropped.contains($0) }.map { blocks[$0] }.joined(separator: "\n\n")
    }

    /// The indices of the short blocks after the article's last paragraph of prose: the "more
    /// on this" heading and its teasers, rating and sharing prompts, tag and category lines;
    /// and copyright notices ("© 2020 …") there, whatever their length. None when they are much
    /// of the text.
    static func trailingFurniture(_ blocks: [Substring], textLength: Int, _ tuning: Tuning) -> Set<Int> {
        guard let last = blocks.lastIndex(where: { isProse($0, tuning) && !isCopyrightNotice($0) }), last < blocks.count - 1 else { return [] }
        var dropped = Set<Int>()
        var droppedLength = 0
        for i in (last + 1)..<blocks.count {
            let block = blocks[i]
            if isCopyrightNotice(block) || (block.utf8.count < tuning.trailingBlockKept && !endsSentence(block) && !introduces(blocks, i, tuning)) {
                dropped.insert(i)
                droppedLength += block.utf8.count
            }
        }
        // Short lines that are much of the text are the page's content (a service page's
        // contact lines, a shop's items), not furniture after an article.
        if Double(droppedLength) > tuning.trailingBlocksShare * Double(textLength) { return [] }
        return dropped
    }

    /// An interior heading after the last paragraph of prose ("Step 2" over a short step): the
    /// block after it ends a sentence and is `tuning.trailingHeadingIntroduces` bytes or more
    /// (0: no block counts as one).
    static func introduces(_ blocks: [Substring], _ i: Int, _ tuning: Tuning) -> Bool {
        guard tuning.trailingHeadingIntroduces > 0, i + 1 < blocks.count else { return false }
        let next = blocks[i + 1]
        return next.utf8.count >= tuning.trailingHeadingIntroduces && endsSentence(next) && !isCopyrightNotice(next)
    }

    /// The blocks of an article that repeat an earlier one word for word and are
    /// `tuning.articleRepeatedBlock` bytes or more (a template's lorem-ipsum paragraphs); 0: none.
    static func repeatedBlocks(_ blocks: [Substring], _ tuning: Tuning) -> Set<Int> {
        guard tuning.articleRepeatedBlock > 0 else { return [] }
        var seen = Set<Substring>()
        var out = Set<Int>()
        for (i, block) in blocks.enumerated() where block.utf8.count >= tuning.articleRepeatedBlock && !seen.insert(block).inserted {
            out.insert(i)
        }
        return out
    }

    /// Removes the text nodes of `blocks` (by `located`: each text node's block) from `root`,
    /// and the elements that hold nothing once they are gone (no text, no picture or media).
    static func remove(blocks: Set<Int>, located: [(node: Int32, block: Int)], in root: Node) {
        let document = root.document
        for (index, block) in located where blocks.contains(block) {
            let text = document.node(at: index)
            var parent = text.parent
            text.remove()
            while let element = parent, element != root, holdsNothing(element) {
                parent = element.parent
                element.remove()
            }
        }
    }

    /// No text but white space, and no picture, media or form control under `element`.
    static func holdsNothing(_ element: Node) -> Bool {
        var stack = element.childNodes
        while let n = stack.popLast() {
            if n.isText {
                if !n.textContent.allSatisfy(\.isWhitespace) { return false }
            } else if n.isElement {
                if kept.contains(n.localName) { return false }
                stack += n.childNodes
            }
        }
        return true
    }

    /// Elements that are something without text: media, and form controls.
    static let kept = CaptionFigures.media.union(["input", "textarea", "select"])

    /// Starts with the copyright sign.
    static func isCopyrightNotice(_ block: Substring) -> Bool {
        block.unicodeScalars.first(where: { !$0.properties.isWhitespace }) == "©"
    }

    /// The blocks of `text` between blank lines ("\n\n", which only the builder writes).
    static func paragraphs(of text: String) -> [Substring] {
        var bounds: [Range<Int>] = []
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            var previousNewline = false
            for i in 0..<bytes.count {
                if bytes[i] == 0x0A && previousNewline {
                    bounds.append(start..<(i - 1))
                    start = i + 1
                    previousNewline = false
                } else {
                    previousNewline = bytes[i] == 0x0A
                }
            }
            bounds.append(start..<bytes.count)
        }
        // Offsets into native UTF-8 are indices at once; every bound is next to a line feed.
        let u = text.utf8
        return bounds.map { r in
            text[u.index(u.startIndex, offsetBy: r.lowerBound)..<u.index(u.startIndex, offsetBy: r.upperBound)]
        }
    }

    /// Ends like a sentence (a closing quote or bracket after the stop is fine).
    static func endsSentence(_ block: Substring) -> Bool {
        var last = block.unicodeScalars.last
        var rest = block.unicodeScalars.dropLast()
        while let l = last, "\"'”’»)]".unicodeScalars.contains(l) { last = rest.last; rest = rest.dropLast() }
        guard let l = last else { return false }
        return ".!?…".unicodeScalars.contains(l)
    }

    /// A paragraph of sentences: long, with a sentence ending in it.
    static func isProse(_ block: Substring, _ tuning: Tuning) -> Bool {
        guard block.utf8.count >= tuning.proseBlock else { return false }
        var block = block
        return block.withUTF8 { u in
            if u.last == 0x2E { return true }
            var previousStop = false
            for b in u {
                if b == 0x20 && previousStop { return true }
                previousStop = b == 0x2E || b == 0x3F || b == 0x21
            }
            return false
        }
    }

    /// Drops a long line that repeats an earlier one word for word: threads and listings print
    /// some blocks twice (one copy for small screens, one for large), and a reader wants one.
    /// An article may repeat a paragraph on purpose, so its text is left alone.
    static func withoutRepeatedLines(_ text: String, _ tuning: Tuning) -> String {
        var seen = Set<Substring>()
        var lines: [Substring] = []
        var dropped = false
        // Split on line-feed bytes: the builder writes no carriage return, so these are the
        // Character lines.
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map({ Substring($0) }) {
            if line.utf8.count >= tuning.repeatedLine {
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

    static let br = Document.knownNameID("br")!
    static let img = Document.knownNameID("img")!
    static let preformatted = NameSet(["pre", "textarea"])

    /// The walk over the arena by index: no handle, so no reference count, per node visited.
    private struct Walk {
        let document: Document
        /// Element indices whose subtrees are left out.
        let skipping: Set<Int32>

        func walk(_ node: Int32, into out: inout Builder, inPre: Bool) {
            let doc = document
            var c = doc.firstChild(at: node)
            while c >= 0 {
                defer { c = doc.nextSibling(at: c) }
                switch doc.kind(at: c) {
                case .text:
                    if out.locating { out.node = c }
                    // The text's bytes in place: no string handed over per text node.
                    doc.withTextUTF8(at: c) { out.append($0, preformatted: inPre) }
                    continue
                case .element:
                    break
                default:
                    continue
                }
                let name = doc.nameID(at: c)
                guard !skipped.contains(id: name), skipping.isEmpty || !skipping.contains(c) else { continue }
                if name == br { out.lineBreak(); continue }
                if name == img { continue }
                let pre = inPre || preformatted.contains(id: name) && isPreformatted(c)
                if paragraphs.contains(id: name) {
                    out.blankLine()
                    walk(c, into: &out, inPre: pre)
                    out.blankLine()
                } else if lines.contains(id: name) {
                    out.lineBreak()
                    walk(c, into: &out, inPre: pre)
                    out.lineBreak()
                } else if cells.contains(id: name) {
                    out.space()
                    walk(c, into: &out, inPre: pre)
                    out.space()
                } else {
                    walk(c, into: &out, inPre: pre)
                }
            }
        }

        /// An HTML `pre` or `textarea` (not a foreign element of that name).
        private func isPreformatted(_ element: Int32) -> Bool {
            let node = document.node(at: element)
            return node.hasTag("pre") || node.hasTag("textarea")
        }
    }

    /// Collects text with pending separators, so runs of breaks collapse to the strongest one.
    /// Works on UTF-8 bytes: the text of a page is mostly ASCII, and a String is built once.
    struct Builder {
        private var result: [UInt8] = []
        /// 0 none, 1 space, 2 line break, 3 blank line.
        private var pending = 0
        private var started = false
        /// Whether each text node's block is noted (`located`): the walk sets `node` first.
        let locating: Bool
        var node: Int32 = -1
        /// The text nodes that wrote something, each with the index of its block (the blocks
        /// `paragraphs(of:)` splits the text into).
        private(set) var located: [(node: Int32, block: Int)] = []
        private var block = 0

        init(locating: Bool = false) { self.locating = locating }

        mutating func space() { pending = max(pending, 1) }
        mutating func lineBreak() { pending = max(pending, 2) }
        mutating func blankLine() { pending = max(pending, 3) }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, preformatted: Bool) {
            if preformatted { appendPreformatted(bytes) } else { appendCollapsed(bytes) }
        }

        /// Words separated by any white space, which becomes one pending space.
        private mutating func appendCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) {
            var i = 0, wordStart = 0
            let n = bytes.count
            while i < n {
                let width = Builder.spaceWidth(bytes, at: i)
                if width > 0 {
                    if i > wordStart { emit(UnsafeBufferPointer(rebasing: bytes[wordStart..<i])) }
                    space()
                    i += width
                    wordStart = i
                } else {
                    i += 1
                }
            }
            if n > wordStart { emit(UnsafeBufferPointer(rebasing: bytes[wordStart..<n])) }
        }

        /// Lines kept as they are (without carriage returns); lines of only spaces and tabs are
        /// left out.
        private mutating func appendPreformatted(_ bytes: UnsafeBufferPointer<UInt8>) {
            var lineStart = 0
            var first = true
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                if !first { lineBreak() }
                first = false
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<i])
                lineStart = i + 1
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                    if line.contains(0x0D) { emit(line.filter { $0 != 0x0D }) } else { emit(line) }
                }
            }
        }

        private mutating func emit<C: Collection>(_ piece: C) where C.Element == UInt8 {
            if started {
                switch pending {
                case 1: result.append(0x20)
                case 2: result.append(0x0A)
                case 3: result.append(0x0A); result.append(0x0A); block += 1
                default: break
                }
            }
            pending = 0
            started = true
            result.append(contentsOf: piece)
            if locating && located.last.map({ $0.node != node || $0.block != block }) ?? true { located.append((node, block)) }
        }

        func finish() -> String { String(decoding: result, as: UTF8.self) }

        /// The byte length of the white-space character at `i` (0: none): ASCII space, tab,
        /// line feed, form feed, carriage return, and the Unicode spaces (no-break, ogham,
        /// en to hair, line and paragraph separators, narrow no-break, medium mathematical,
        /// ideographic, zero-width no-break).
        @inline(__always)
        static func spaceWidth(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
            let c = b[i]
            if c < 0x80 { return c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D ? 1 : 0 }
            let n = b.count
            switch c {
            case 0xC2: return i + 1 < n && b[i + 1] == 0xA0 ? 2 : 0
            case 0xE1: return i + 2 < n && b[i + 1] == 0x9A && b[i + 2] == 0x80 ? 3 : 0
            case 0xE2:
                guard i + 2 < n else { return 0 }
                let c1 = b[i + 1], c2 = b[i + 2]
                if c1 == 0x80 && (c2 <= 0x8A || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF) && c2 >= 0x80 { return 3 }
                return c1 == 0x81 && c2 == 0x9F ? 3 : 0
            case 0xE3: return i + 2 < n && b[i + 1] == 0x80 && b[i + 2] == 0x80 ? 3 : 0
            case 0xEF: return i + 2 < n && b[i + 1] == 0xBB && b[i + 2] == 0xBF ? 3 : 0
            default: return 0
            }
        }
    }
}
