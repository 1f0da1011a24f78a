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

    /// Appends `text`, escaped as `escape` does, to `out`: runs that need no escaping are
    /// copied whole.
    static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ append(bytes: $0, to: &out) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { append(bytes: $0, to: &out) }
        }
    }

    private static func append(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var run = 0
        for i in 0..<bytes.count where needsEscape(bytes[i]) {
            if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            appendEscape(bytes[i], to: &out)
            run = i + 1
        }
        if run < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
        case 0: out.append(contentsOf: [0xEF, 0xBF, 0xBD])     // U+FFFD
        default: out.append(contentsOf: "&#13;".utf8)            // 0x0D
        }
    }

    /// The escaped text, or nil when nothing needs escaping.
    private static func escape<C: Collection<UInt8>>(bytes: C) -> String? {
        guard bytes.contains(where: needsEscape) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if needsEscape(byte) { appendEscape(byte, to: &out) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `escape` rewrites, all below 0x40, as bits: NUL (0), CR (13), `"` (34), `&`
    /// (38), `'` (39), `<` (60), `>` (62). A literal, so the hot loop reads no global.
    private static var escapedBits: UInt64 { 0x5000_00C4_0000_2001 }

    /// One compare and a bit test instead of a chain of compares.
    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x40 && (escapedBits >> UInt64(byte)) & 1 != 0
    }
}
