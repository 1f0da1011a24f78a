import Foundation

// EUC-JP, which Foundation cannot decode on Linux. Both EUC-JP and Shift_JIS encode
// JIS X 0208 by arithmetic on the row/cell numbers, so EUC-JP is re-encoded as Shift_JIS
// (which Foundation decodes) run by run. JIS X 0212 (0x8F prefix) has no Shift_JIS form and
// becomes U+FFFD, as do malformed sequences.

extension InputDecoder {
    static func decodeEUCJP(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 2)
        var sjis: [UInt8] = []
        func flush() {
            guard !sjis.isEmpty else { return }
            if let s = String(data: Data(sjis), encoding: .shiftJIS) {
                out += Array(s.utf8)
            } else {
                out += [0xEF, 0xBF, 0xBD]
            }
            sjis.removeAll(keepingCapacity: true)
        }
        func replacement() {
            flush()
            out += [0xEF, 0xBF, 0xBD]
        }
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                sjis.append(b)
                i += 1
            } else if b == 0x8E, i + 1 < n, (0xA1...0xDF).contains(bytes[i + 1]) {
                sjis.append(bytes[i + 1])  // half-width katakana: the same byte in Shift_JIS
                i += 2
            } else if b == 0x8F, i + 2 < n, (0xA1...0xFE).contains(bytes[i + 1]), (0xA1...0xFE).contains(bytes[i + 2]) {
                replacement()  // JIS X 0212
                i += 3
            } else if (0xA1...0xFE).contains(b), i + 1 < n, (0xA1...0xFE).contains(bytes[i + 1]) {
                let j1 = Int(b) - 0x80, j2 = Int(bytes[i + 1]) - 0x80
                let s1 = ((j1 + 1) >> 1) + (j1 <= 0x5E ? 0x70 : 0xB0)
                let s2 = j2 + (j1 & 1 == 1 ? (j2 >= 0x60 ? 0x20 : 0x1F) : 0x7E)
                sjis.append(UInt8(truncatingIfNeeded: s1))
                sjis.append(UInt8(truncatingIfNeeded: s2))
                i += 2
            } else {
                replacement()
                i += 1
            }
        }
        flush()
        return out
    }
}
