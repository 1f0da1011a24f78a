// Word lists indexed by first byte: one pass over the text tries, at each position, only the
// words that start with that byte, instead of one full scan per word.

struct WordSet: Sendable {
    let words: [[UInt8]]
    /// Every word's bytes, one after another, grouped by first byte: the words starting with
    /// byte `c` are `spans[c]` (ranges of `starts`), each `bytes[starts[k]..<starts[k + 1]]`.
    /// One flat buffer keeps the scan from loading an array (and its count) per word tried.
    private let bytes: [UInt8]
    private let starts: [Int]
    private let spans: [Range<Int>]

    init(_ list: String...) {
        words = list.map { Array($0.utf8) }.filter { !$0.isEmpty }
        var bytes: [UInt8] = [], starts: [Int] = [], spans: [Range<Int>] = []
        for first in 0..<256 {
            let lower = starts.count
            for w in words where Int(w[0]) == first {
                starts.append(bytes.count)
                bytes.append(contentsOf: w)
            }
            spans.append(lower..<starts.count)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
        self.spans = spans
    }

    /// Whether any of the words occurs in `b`.
    func occurs(in b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { hay in
            bytes.withUnsafeBufferPointer { words in
                starts.withUnsafeBufferPointer { starts in
                    spans.withUnsafeBufferPointer { spans in
                        let n = hay.count
                        var i = 0
                        while i < n {
                            for k in spans[Int(hay[i])] {
                                let start = starts[k], m = starts[k + 1] - start
                                if i + m > n { continue }
                                var j = 1
                                while j < m && hay[i + j] == words[start + j] { j += 1 }
                                if j == m { return true }
                            }
                            i += 1
                        }
                        return false
                    }
                }
            }
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
