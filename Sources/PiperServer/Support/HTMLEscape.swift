#if canImport(Glibc)
import Glibc
#endif

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

    /// Appends `text`, escaped as `escape` does, to `out`: the runs between bytes to rewrite
    /// are found by libc's `strcspn` (vectorised) and copied whole.
    static func append(_ text: String, to out: inout [UInt8]) {
        let count = text.utf8.count
        guard count > 0 else { return }
        text.withCString { base in
            Self.rewritten.withUnsafeBufferPointer { reject in
                guard let reject = reject.baseAddress else { return }
                var i = 0
                while i < count {
                    // Stops at a byte to rewrite or at a NUL: the terminator, or one in the text.
                    let run = min(strcspn(base + i, reject), count - i)
                    if run > 0 {
                        UnsafeRawPointer(base + i).withMemoryRebound(to: UInt8.self, capacity: run) {
                            out.append(contentsOf: UnsafeBufferPointer(start: $0, count: run))
                        }
                        i += run
                    }
                    if i < count {
                        appendEscape(UInt8(bitPattern: base[i]), to: &out)
                        i += 1
                    }
                }
            }
        }
    }

    /// The bytes `escape` rewrites but NUL, which `strcspn` stops at anyway, as a C string.
    private static let rewritten: [CChar] = Array("&<>\"'\r".utf8CString)

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
