// Each text node's contribution to the text measurements, worked out once per extraction.
// Conditional cleaning, scoring and link density measure nested subtrees, so the same text
// node was scanned once per enclosing candidate; a `TextPiece` folds into a `TextScanner`
// exactly as scanning the node's bytes would. Readability never changes a text node's data
// (it removes, moves and creates nodes), so a piece stays true for its node's whole life.
import HTML

/// What scanning one text node does to a `TextScanner`.
struct TextPiece {
    /// The text has a non-space character.
    var hasContent = false
    /// Whitespace characters before the first content (all of them when there is none).
    var leadingSpaces: Int32 = 0
    /// Whitespace characters after the last content.
    var trailingSpaces: Int32 = 0
    /// UTF-16 length from the first to the last content, each inner whitespace run as one.
    var normalizedLength: Int32 = 0
    /// The same with inner whitespace runs at their length.
    var rawLength: Int32 = 0
    var asciiCommas: Int32 = 0
    var allCommas: Int32 = 0

    init() {}

    init(text: String) {
        var normalized = TextScanner(normalizeSpaces: true)
        normalized.scan(text)
        hasContent = normalized.seenContent
        if hasContent {
            rawLength = Int32(normalized.stats.length + normalized.collapsedSpaces)
            leadingSpaces = Int32(normalized.leadingSpaceCount)
            trailingSpaces = Int32(normalized.pendingSpaces)
        } else {
            leadingSpaces = Int32(normalized.pendingSpaces)
        }
        normalizedLength = Int32(normalized.stats.length)
        asciiCommas = Int32(normalized.stats.asciiCommas)
        allCommas = Int32(normalized.stats.allCommas)
    }
}

extension TextScanner {
    /// Scans a text node through its cached piece: the same state as `scan(node.data)`.
    @inline(__always) mutating func add(_ piece: TextPiece) {
        pendingSpaces += Int(piece.leadingSpaces)
        guard piece.hasContent else { return }
        content(units: Int(normalizeSpaces ? piece.normalizedLength : piece.rawLength))
        pendingSpaces = Int(piece.trailingSpaces)
        stats.asciiCommas += Int(piece.asciiCommas)
        stats.allCommas += Int(piece.allCommas)
    }
}

/// The pieces of one document's text nodes, by node index, filled in as they are asked for.
final class TextPieces {
    private struct Entry {
        var piece = TextPiece()
        var known = false
    }

    @exclusivity(unchecked) private var entries: [Entry] = []

    /// The piece of text node `node`.
    func piece(_ node: Node) -> TextPiece { piece(at: node.index, in: node.document) }

    /// `piece(_:)` of the node at `index` in `document`.
    func piece(at index: Int32, in document: Document) -> TextPiece {
        let i = Int(index)
        if i < entries.count, entries[i].known { return entries[i].piece }
        if i >= entries.count {
            entries.append(contentsOf: repeatElement(Entry(), count: max(i + 1, document.indexLimit) - entries.count))
        }
        let kind = document.kind(at: index)
        let piece = TextPiece(text: kind == .text || kind == .comment ? document.text(at: index) : "")
        entries[i] = Entry(piece: piece, known: true)
        return piece
    }
}
