// Text measures over a detached or attached subtree (non-space UTF-8 bytes), and the index of a
// container's identifying text pieces that the choice compares other containers with.
import Foundation
import HTML

/// Text measures over a detached or attached subtree (non-space UTF-8 bytes). The text of
/// scripts and styles is no text: a copy loses them before it is weighed cleaned, and a page's
/// inline scripts (often larger than its prose) would only blur its measure before.
enum TextMass {
    static func length(_ root: Node) -> Int {
        length(at: root.index, in: root.document)
    }

    /// `length` of node `index` of `document`, walked by index.
    static func length(at index: Int32, in document: Document) -> Int {
        switch document.kind(at: index) {
        case .text: return document.withTextUTF8(at: index) { TextTable.nonSpaceCount($0) }
        case .element where unread.contains(id: document.nameID(at: index)): return 0
        default: break
        }
        var n = 0
        var c = document.nextInTree(after: index, within: index)
        while c >= 0 {
            switch document.kind(at: c) {
            case .text:
                n += document.withTextUTF8(at: c) { TextTable.nonSpaceCount($0) }
            case .element where unread.contains(id: document.nameID(at: c)):
                c = document.nextInTree(skipping: c, within: index)
                continue
            default:
                break
            }
            c = document.nextInTree(after: c, within: index)
        }
        return n
    }

    /// Never text.
    static let unread = NameSet(["script", "style"])

    /// Calls `body` with each text piece of `root` long enough to identify a passage (`least`
    /// bytes or more once leading and trailing ASCII white space is trimmed: `Tuning.piece`):
    /// its node's string, the piece's first byte offset in it, and its bytes.
    static func forEachPiece(_ root: Node, least: Int, _ body: (String, Int, UnsafeBufferPointer<UInt8>) -> Void) {
        root.forEachDescendantText { owner in
            var s = owner
            s.withUTF8 { bytes in
                if let (start, piece) = trimmedPiece(bytes, least: least) { body(owner, start, piece) }
            }
        }
    }

    /// `forEachPiece` with the pieces' bytes only, read in place (no string per text).
    static func forEachPieceUTF8(_ root: Node, least: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        root.forEachDescendantTextUTF8 { bytes in
            if let (_, piece) = trimmedPiece(bytes, least: least) { body(piece) }
        }
    }

    /// A text's bytes with leading and trailing ASCII white space trimmed, and where they
    /// start, when `least` bytes or more are left.
    @inline(__always)
    private static func trimmedPiece(_ bytes: UnsafeBufferPointer<UInt8>, least: Int) -> (Int, UnsafeBufferPointer<UInt8>)? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] <= 0x20 { start += 1 }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        return end - start >= least ? (start, UnsafeBufferPointer(rebasing: bytes[start..<end])) : nil
    }
}

/// The identifying text pieces of one container (Readability's candidate), indexed once so
/// that each container the choice weighs against it is walked once, for both directions of
/// the comparison. Pieces are compared by their bytes: both sides are text of the same page
/// (the candidate holds the page's own text nodes, an alternative a snapshot's), so the same
/// passage is the same bytes.
struct PieceIndex {
    private struct Piece {
        /// The piece's node's string (it owns the bytes) and the piece's place in it.
        let text: String
        let start: Int
        let count: Int
        let hash: Int
        /// Its length times how often it occurs in the container.
        var weight: Int
        /// The last comparison that found it.
        var seen = 0
    }

    private var pieces: [Piece] = []
    /// Open addressing by hash: a piece's position plus one; 0 is an empty slot.
    private var slots: [Int32]
    /// The bytes of all of the container's pieces, repeats counted.
    private var total = 0
    private var comparisons = 0
    /// The shortest piece that identifies a passage (`Tuning.piece`).
    private let least: Int

    init(_ root: Node, piece least: Int) {
        self.least = least
        var found: [Piece] = []
        TextMass.forEachPiece(root, least: least) { s, start, piece in
            found.append(Piece(text: s, start: start, count: piece.count, hash: PieceIndex.hash(piece), weight: piece.count))
        }
        var size = 16
        while size < 2 * found.count { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        for p in found {
            total += p.count
            var text = p.text
            text.withUTF8 { bytes in
                let piece = UnsafeBufferPointer(rebasing: bytes[p.start..<(p.start + p.count)])
                if let k = position(of: piece, hash: p.hash) {
                    pieces[k].weight += p.count
                } else {
                    var slot = p.hash & (slots.count - 1)
                    while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
                    pieces.append(p)
                    slots[slot] = Int32(pieces.count)
                }
            }
        }
    }

    /// The shares found in both directions: of this container's piece text found in `other`,
    /// and of `other`'s piece text found in this container (0 where a side has no pieces).
    mutating func overlap(with other: Node) -> (ofIndexed: Double, ofOther: Double) {
        comparisons += 1
        let comparison = comparisons
        var foundIndexed = 0, foundOther = 0, allOther = 0
        TextMass.forEachPieceUTF8(other, least: least) { piece in
            allOther += piece.count
            guard let k = position(of: piece, hash: PieceIndex.hash(piece)) else { return }
            foundOther += piece.count
            if pieces[k].seen != comparison {
                pieces[k].seen = comparison
                foundIndexed += pieces[k].weight
            }
        }
        return (total > 0 ? Double(foundIndexed) / Double(total) : 0, allOther > 0 ? Double(foundOther) / Double(allOther) : 0)
    }

    /// The position in `pieces` of the piece with these bytes.
    private func position(of piece: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let k = Int(slots[slot]) - 1
            let p = pieces[k]
            if p.hash == hash && p.count == piece.count {
                var text = p.text
                let equal = text.withUTF8 { bytes in
                    memoryEqual(UnsafeBufferPointer(rebasing: bytes[p.start..<(p.start + p.count)]), piece)
                }
                if equal { return k }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func memoryEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
    }
}
