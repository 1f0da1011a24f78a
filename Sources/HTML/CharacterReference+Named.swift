// Longest-prefix lookup in the generated named character reference table (§ 13.2.5.73:
// "consume the maximum number of characters possible, where the consumed characters are
// one of the identifiers in the table").

extension NamedCharacterReferences {
    enum Match: Equatable {
        case none
        /// `length` bytes of input (the name, with its ';' if any) name entry `index`.
        case found(length: Int, index: Int)
        /// The buffered input ends inside a longer possible name; wait for more.
        case needMoreInput
    }

    /// The longest name that is a prefix of p[0..<count]. Narrows a range of the sorted
    /// table one input byte at a time (binary search at each depth).
    static func longestMatch(_ p: UnsafePointer<UInt8>, _ count: Int, atEOF: Bool) -> Match {
        let blob = names.utf8Start
        return offsets.withUnsafeBufferPointer { off -> Match in
            var lo = 0, hi = Self.count
            var best = Match.none
            var k = 0
            while lo < hi {
                // A name of exactly k bytes sorts first in the range: it is a match.
                if Int(off[lo + 1]) - Int(off[lo]) == k {
                    if k > 0 { best = .found(length: k, index: lo) }
                    lo += 1
                    if lo == hi { break }
                }
                if k == count { return atEOF ? best : .needMoreInput }
                let c = p[k]
                // Lower bound of c at depth k in [lo, hi).
                var a = lo, b = hi
                while a < b {
                    let m = (a &+ b) >> 1
                    if blob[Int(off[m]) + k] < c { a = m + 1 } else { b = m }
                }
                let first = a
                b = hi
                while a < b {
                    let m = (a &+ b) >> 1
                    if blob[Int(off[m]) + k] <= c { a = m + 1 } else { b = m }
                }
                lo = first
                hi = a
                k += 1
            }
            return best
        }
    }

    static func scalars(at index: Int) -> (UInt32, UInt32) {
        (values[2 * index], values[2 * index + 1])
    }
}
