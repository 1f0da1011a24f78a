// Text measures over a detached or attached subtree (non-space UTF-8 bytes), and the set of a
// subtree's identifying text pieces that the choice compares containers with.
import HTML

/// Text measures over a detached or attached subtree (non-space UTF-8 bytes).
enum TextMass {
    static func length(_ root: Node) -> Int {
        var n = 0
        root.forEachDescendantText { n += TextTable.nonSpaceCount($0) }
        return n
    }

    /// The distinct text pieces of `root` long enough to identify a passage.
    static func pieces(_ root: Node) -> TextPieceSet {
        var out = TextPieceSet()
        root.forEachDescendantText { s in
            let t = trimmed(s)
            if t.utf8.count >= 20 { out.insert(t) }
        }
        return out
    }

    /// Share of `root`'s identifying text found in `pieces`.
    static func overlap(_ root: Node, with pieces: TextPieceSet) -> Double {
        var pieces = pieces
        var found = 0, all = 0
        root.forEachDescendantText { s in
            let t = trimmed(s)
            let n = t.utf8.count
            guard n >= 20 else { return }
            all += n
            if pieces.contains(t) { found += n }
        }
        return all > 0 ? Double(found) / Double(all) : 0
    }

    /// `s` without leading and trailing ASCII whitespace.
    static func trimmed(_ s: String) -> Substring {
        let u = s.utf8
        var start = u.startIndex, end = u.endIndex
        while start < end, u[start] <= 0x20 { start = u.index(after: start) }
        while end > start, u[u.index(before: end)] <= 0x20 { end = u.index(before: end) }
        return s[start..<end]
    }
}

/// A set of text pieces with `Set<Substring>`'s answers (canonical equivalence), keyed by the
/// pieces' UTF-8 bytes, each hashed once. Two strings in NFC are equal exactly when their bytes
/// are; a piece made only of scalars below U+0300 and of U+2002–U+207F (general punctuation:
/// curly quotes, dashes) is in NFC, so bytes decide whenever both sides are such pieces. Any
/// other piece (either side) is looked up in a `Set<Substring>`, built on the first such lookup.
struct TextPieceSet {
    private var keys = Set<Key>()
    private var all: [Substring] = []
    private var allPlain = true
    private var exact: Set<Substring>?

    mutating func insert(_ piece: Substring) {
        let key = Key(piece)
        if !key.plain { allPlain = false }
        if keys.insert(key).inserted { all.append(piece) }
    }

    mutating func contains(_ piece: Substring) -> Bool {
        let key = Key(piece)
        if keys.contains(key) { return true }
        if allPlain && key.plain { return false }
        if exact == nil { exact = Set(all) }
        return exact!.contains(piece)
    }

    struct Key: Hashable {
        let text: Substring
        let hash: Int
        /// Only scalars below U+0300 and U+2002–U+207F: in NFC.
        let plain: Bool

        init(_ text: Substring) {
            self.text = text
            var hasher = Hasher()
            var plain = true
            let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                plain = Key.isPlain(bytes)
            }
            if done == nil {
                let bytes = Array(text.utf8)
                bytes.withUnsafeBufferPointer { b in
                    hasher.combine(bytes: UnsafeRawBufferPointer(b))
                    plain = Key.isPlain(b)
                }
            }
            hash = hasher.finalize()
            self.plain = plain
        }

        /// UTF-8 lead bytes up to 0xCB are scalars below U+0300; E2 80 xx and E2 81 xx are
        /// U+2000–U+207F, of which U+2000 and U+2001 (E2 80 80, E2 80 81) are not in NFC.
        static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b < 0xCC { i += 1; continue }
                guard b == 0xE2, i + 2 < n else { return false }
                let b1 = bytes[i + 1], b2 = bytes[i + 2]
                guard b1 == 0x80 || b1 == 0x81, !(b1 == 0x80 && b2 <= 0x81) else { return false }
                i += 3
            }
            return true
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (a: Key, b: Key) -> Bool {
            guard a.hash == b.hash, a.text.utf8.count == b.text.utf8.count else { return false }
            if let equal = a.text.utf8.withContiguousStorageIfAvailable({ x in
                b.text.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
            }), let equal { return equal }
            return a.text.utf8.elementsEqual(b.text.utf8)
        }
    }
}
