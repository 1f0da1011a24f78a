import Foundation

// The multi-byte legacy encodings (Shift_JIS, EUC-KR, GBK/gb18030, Big5, ISO-2022-JP; EUC-JP
// has its own file). Foundation decodes them, but all or nothing: one malformed byte and it
// returns nil. So the input is first cut into characters by each encoding's byte structure
// (the lead and trail ranges of the Encoding Standard's decoders), runs of characters go to
// Foundation, and a run it refuses is decoded character by character, each character it cannot
// map becoming U+FFFD. This is what Chromium does with a page that claims gb2312 and is not:
// replacement characters, never a silent switch to windows-1252.

extension InputDecoder {
    /// The encodings decoded here.
    static let multibyteEncodings: Set<String> = ["shift_jis", "euc-kr", "gbk", "gb18030", "big5", "iso-2022-jp"]

    /// The length of the character at `i`, and whether its bytes have the encoding's shape
    /// (a malformed lead byte is a one-byte character that is not valid).
    @inline(__always)
    static func characterLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ encoding: String) -> (length: Int, valid: Bool) {
        let b = p[i]
        if b < 0x80 { return (1, true) }
        let next: UInt8? = i + 1 < p.count ? p[i + 1] : nil
        switch encoding {
        case "shift_jis":
            if b == 0x80 || (0xA1...0xDF).contains(b) { return (1, true) }
            guard (0x81...0x9F).contains(b) || (0xE0...0xFC).contains(b), let t = next,
                  (0x40...0x7E).contains(t) || (0x80...0xFC).contains(t) else { return (1, false) }
            return (2, true)
        case "euc-kr":
            guard b >= 0x81, b <= 0xFE, let t = next, (0x41...0xFE).contains(t) else { return (1, false) }
            return (2, true)
        case "big5":
            guard b >= 0x81, b <= 0xFE, let t = next, (0x40...0x7E).contains(t) || (0xA1...0xFE).contains(t) else {
                return (1, false)
            }
            return (2, true)
        default:  // gbk, gb18030
            if b == 0x80 { return (1, true) }
            guard b <= 0xFE, let t = next else { return (1, false) }
            if (0x40...0x7E).contains(t) || (0x80...0xFE).contains(t) { return (2, true) }
            if (0x30...0x39).contains(t), i + 3 < p.count, (0x81...0xFE).contains(p[i + 2]), (0x30...0x39).contains(p[i + 3]) {
                return (4, true)
            }
            return (1, false)
        }
    }

    /// Decodes a multi-byte encoding with U+FFFD for what cannot be decoded.
    static func decodeMultibyte(_ bytes: [UInt8], as encoding: String) -> [UInt8] {
        guard let raw = foundationEncodings[encoding] else { return decodeWindows1252(bytes) }
        let foundation = String.Encoding(rawValue: raw)
        if encoding == "iso-2022-jp" { return decodeISO2022JP(bytes, foundation) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 2)
        bytes.withUnsafeBufferPointer { p in
            var start = 0
            while start < p.count {
                // A run of up to 4 KiB that ends on a character boundary.
                var i = start, clean = true
                while i < p.count, i - start < 4096 {
                    let (length, valid) = characterLength(p, i, encoding)
                    clean = clean && valid
                    i += length
                }
                let run = UnsafeBufferPointer(rebasing: p[start..<min(i, p.count)])
                if clean, let s = String(data: Data(buffer: run), encoding: foundation) {
                    out += s.utf8
                } else {
                    decodeCharacters(run, encoding, foundation, into: &out)
                }
                start = i
            }
        }
        return out
    }

    private static func decodeCharacters(_ p: UnsafeBufferPointer<UInt8>, _ encoding: String,
                                         _ foundation: String.Encoding, into out: inout [UInt8]) {
        var i = 0
        while i < p.count {
            let (length, valid) = characterLength(p, i, encoding)
            let end = min(i + length, p.count)
            if p[i] < 0x80 {
                out.append(p[i])
            } else if valid, let s = String(data: Data(buffer: UnsafeBufferPointer(rebasing: p[i..<end])), encoding: foundation) {
                out += s.utf8
            } else {
                out += [0xEF, 0xBF, 0xBD]
            }
            i = end
        }
    }

    /// ISO-2022-JP is stateful: each escape sequence starts a segment that Foundation decodes
    /// alone (after the escape that sets its state); a segment it refuses becomes U+FFFD.
    private static func decodeISO2022JP(_ bytes: [UInt8], _ foundation: String.Encoding) -> [UInt8] {
        if let s = String(data: Data(bytes), encoding: foundation) { return Array(s.utf8) }
        var out: [UInt8] = []
        var segments: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x1B && i > start {
            segments.append(bytes[start..<i])
            start = i
        }
        segments.append(bytes[start...])
        for segment in segments where !segment.isEmpty {
            if let s = String(data: Data(segment + [0x1B, 0x28, 0x42]), encoding: foundation) {
                out += s.utf8
            } else {
                out += [0xEF, 0xBF, 0xBD]
            }
        }
        return out
    }

    /// How many of `bytes` can be decoded now without cutting a character that more input
    /// would complete: everything up to a byte that cannot be inside a character.
    static func decodablePrefix(_ bytes: [UInt8], as encoding: String) -> Int {
        switch encoding {
        case "utf-8":
            var i = bytes.count
            var back = 0
            while i > 0, back < 3, bytes[i - 1] & 0xC0 == 0x80 { i -= 1; back += 1 }
            guard i > 0 else { return bytes.count }
            let lead = bytes[i - 1]
            let need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
            return need > back && lead >= 0xC0 ? i - 1 : bytes.count
        case "utf-16le", "utf-16be":
            var n = bytes.count & ~1
            if n >= 2 {
                let high = encoding == "utf-16le" ? bytes[n - 1] : bytes[n - 2]
                if (0xD8...0xDB).contains(high) { n -= 2 }
            }
            return n
        case "euc-jp", "euc-kr":
            return (bytes.lastIndex { $0 < 0x80 }).map { $0 + 1 } ?? 0
        case "shift_jis", "big5", "gbk", "gb18030":
            // Trail bytes go down to 0x30 (gb18030's four-byte form): a byte below is whole.
            return (bytes.lastIndex { $0 < 0x30 }).map { $0 + 1 } ?? 0
        case "iso-2022-jp":
            guard bytes.contains(0x1B) else { return bytes.count }
            var i = bytes.count - 3
            while i >= 0 {
                if bytes[i] == 0x1B, bytes[i + 1] == 0x28, bytes[i + 2] == 0x42 { return i + 3 }
                i -= 1
            }
            return 0
        default:
            return bytes.count
        }
    }
}
