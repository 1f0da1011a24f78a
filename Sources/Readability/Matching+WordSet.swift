// Word lists indexed by first byte: one pass over the text tries, at each position, only the
// words that start with that byte, instead of one full scan per word.

struct WordSet: Sendable {
    let words: [[UInt8]]
    /// For each byte value, the indices of the words starting with it.
    let byFirstByte: [[Int]]

    init(_ list: String...) {
        words = list.map { Array($0.utf8) }.filter { !$0.isEmpty }
        var index = [[Int]](repeating: [], count: 256)
        for (k, w) in words.enumerated() { index[Int(w[0])].append(k) }
        byFirstByte = index
    }

    /// Whether any of the words occurs in `b`.
    func occurs(in b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { hay in
            let n = hay.count
            var i = 0
            while i < n {
                for k in byFirstByte[Int(hay[i])] {
                    let w = words[k]
                    let m = w.count
                    if i + m > n { continue }
                    var j = 1
                    while j < m && hay[i + j] == w[j] { j += 1 }
                    if j == m { return true }
                }
                i += 1
            }
            return false
        }
    }
}

extension Matching {
    static func containsAny(_ s: String, _ set: WordSet) -> Bool {
        if s.isEmpty { return false }
        return set.occurs(in: lowered(s))
    }

    static func containsAny(_ b: [UInt8], _ set: WordSet) -> Bool { set.occurs(in: b) }
}
