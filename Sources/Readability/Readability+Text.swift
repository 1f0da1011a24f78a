// Text measurements without building strings: `_getInnerText(e).length` (trimmed, with
// `\s{2,}` collapsed), comma counts and raw `textContent.length`, streamed over the UTF-8 of
// the text nodes. These run for every candidate, link and cleaned element, so they matter.
import HTML

struct TextStats {
    /// UTF-16 length of the trimmed (and, when asked, normalised) text.
    var length = 0
    /// ASCII commas (`_getCharCount(e, ",")`).
    var asciiCommas = 0
    /// All comma variants of REGEXPS.commas.
    var allCommas = 0
}

/// Streams text through the trim + `\s{2,}` rules; a plain value so the hot loop has no
/// captured (boxed) state.
struct TextScanner {
    var stats = TextStats()
    var pendingSpaces = 0
    var seenContent = false
    /// Whitespace came before the first content (what trimming dropped at the start).
    var leadingSpace = false
    /// How many whitespace characters that was.
    var leadingSpaceCount = 0
    /// Whitespace characters between contents beyond the first of each run (what
    /// normalising drops).
    var collapsedSpaces = 0
    let normalizeSpaces: Bool

    init(normalizeSpaces: Bool) { self.normalizeSpaces = normalizeSpaces }

    @inline(__always) mutating func content(units: Int) {
        if pendingSpaces > 0 {
            if seenContent {
                stats.length += normalizeSpaces ? 1 : pendingSpaces
                collapsedSpaces += pendingSpaces - 1
            } else {
                leadingSpace = true
                leadingSpaceCount = pendingSpaces
            }
            pendingSpaces = 0
        }
        seenContent = true
        stats.length += units
    }

    mutating func scan(_ buf: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = buf.count
        while i < n {
            let b = buf[i]
            if b < 0x80 {
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    pendingSpaces += 1
                    i += 1
                    continue
                }
                // A run of ASCII non-space characters counts as one piece of content.
                var j = i + 1
                var commas = b == 0x2C ? 1 : 0
                while j < n {
                    let c = buf[j]
                    if c >= 0x80 || c == 0x20 || (c >= 0x09 && c <= 0x0D) { break }
                    if c == 0x2C { commas += 1 }
                    j += 1
                }
                content(units: j - i)
                stats.asciiCommas += commas
                stats.allCommas += commas
                i = j
                continue
            }
            // Multi-byte scalar: its length in bytes and UTF-16 units.
            let width = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            var scalar: UInt32 = 0
            if width == 2, i + 1 < n {
                scalar = UInt32(b & 0x1F) << 6 | UInt32(buf[i + 1] & 0x3F)
            } else if width == 3, i + 2 < n {
                scalar = UInt32(b & 0x0F) << 12 | UInt32(buf[i + 1] & 0x3F) << 6 | UInt32(buf[i + 2] & 0x3F)
            }
            if Readability.isNonASCIISpace(scalar) {
                pendingSpaces += 1
            } else {
                content(units: width == 4 ? 2 : 1)
                switch scalar {
                case 0x60C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C: stats.allCommas += 1
                default: break
                }
            }
            i += width
        }
    }

    mutating func scan(_ text: String) {
        var text = text
        text.withUTF8 { scan($0) }
    }
}

extension Readability {
    /// `_getInnerText(node, normalizeSpaces).length` and comma counts.
    func textStats(_ node: Node, normalizeSpaces: Bool = true) -> TextStats {
        textStats(at: node.index, in: node.document, normalizeSpaces: normalizeSpaces)
    }

    /// `textStats` of node `index` of `document`, stepping by index (no handle per text node).
    func textStats(at index: Int32, in document: Document, normalizeSpaces: Bool = true) -> TextStats {
        var scanner = TextScanner(normalizeSpaces: normalizeSpaces)
        if document.kind(at: index) == .text {
            scanner.add(textPieces.piece(at: index, in: document))
        } else {
            var c = document.nextInTree(after: index, within: index)
            while c >= 0 {
                if document.kind(at: c) == .text { scanner.add(textPieces.piece(at: c, in: document)) }
                c = document.nextInTree(after: c, within: index)
            }
        }
        return scanner.stats
    }

    /// `_getInnerText(node, normalizeSpaces).length`, memoised while `textLengthCache` is on.
    func innerTextLength(_ node: Node, normalizeSpaces: Bool = true) -> Int {
        innerTextLength(at: node.index, in: node.document, normalizeSpaces: normalizeSpaces)
    }

    /// `innerTextLength` of node `index` of `document`.
    func innerTextLength(at index: Int32, in document: Document, normalizeSpaces: Bool = true) -> Int {
        guard normalizeSpaces, textLengthCache != nil else {
            return textStats(at: index, in: document, normalizeSpaces: normalizeSpaces).length
        }
        // Read in place: a copy of the table held across the write below would be copied whole.
        if let known = textLengthCache?[index] { return known }
        let length = textStats(at: index, in: document).length
        textLengthCache?[index] = length
        return length
    }

    /// Stores a normalised inner-text length measured by another walk, while the memo is on.
    func rememberTextLength(_ length: Int, of node: Node) {
        guard textLengthCache != nil else { return }
        textLengthCache?[node.index] = length
    }

    /// Runs `body` with inner-text lengths memoised. Only removals (through `removeNodes`)
    /// may change the tree meanwhile; they drop the entries of the removed node's ancestors.
    func withTextLengthCache<T>(_ body: () -> T) -> T {
        textLengthCache = [:]
        defer { textLengthCache = nil }
        return body()
    }

    /// Forgets cached lengths that included `node`'s text (call before detaching it).
    func invalidateTextLengths(above node: Node) {
        guard textLengthCache != nil else { return }
        var current: Node? = node
        while let n = current {
            textLengthCache?[n.index] = nil
            current = n.parent
        }
    }

    /// `node.textContent.trim() !== ""`, stopping at the first non-space character.
    func hasNonSpaceText(_ node: Node) -> Bool {
        if node.isText { return Readability.hasNonSpace(node.data) }
        return node.anyDescendantTextUTF8(Readability.hasNonSpace)
    }

    static func hasNonSpace(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(hasNonSpace)
    }

    /// `hasNonSpace` over a text's UTF-8.
    static func hasNonSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in bytes {
            if c == 0x20 || (c >= 0x09 && c <= 0x0D) { continue }
            if c < 0x80 { return true }
            // A non-ASCII byte came first: the scalar check decides (NBSP and friends are spaces).
            return !JSString.isBlank(String(decoding: bytes, as: UTF8.self))
        }
        return false
    }

    /// `node.textContent.length` (untrimmed).
    func rawTextLength(_ node: Node) -> Int {
        if node.isText { return JSString.length(node.data) }
        var length = 0
        node.forEachDescendantText { length += JSString.length($0) }
        return length
    }

    /// JavaScript whitespace outside ASCII.
    static func isNonASCIISpace(_ v: UInt32) -> Bool {
        switch v {
        case 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }
}
