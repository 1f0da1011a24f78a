/// Escaping for text and attribute values written into HTML we generate.
enum HTMLEscape {
    /// Escapes `&`, `<`, `>`, `"` and `'`: safe in text and in quoted attribute values. U+0000
    /// becomes U+FFFD. A carriage return is written as `&#13;`, since a raw one reads back as a
    /// line feed. Works on UTF-8 bytes: every byte it rewrites is ASCII, so multi-byte
    /// sequences pass through untouched.
    static func escape(_ text: String) -> String {
        if let escaped = text.utf8.withContiguousStorageIfAvailable({ escape(bytes: $0) }) {
            return escaped ?? text
        }
        return escape(bytes: Array(text.utf8)) ?? text
    }

    /// The escaped text, or nil when nothing needs escaping.
    private static func escape<C: Collection<UInt8>>(bytes: C) -> String? {
        guard bytes.contains(where: needsEscape) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            case 0: out.append(contentsOf: [0xEF, 0xBF, 0xBD])     // U+FFFD
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0, 0x0D: return true
        default: return false
        }
    }
}
