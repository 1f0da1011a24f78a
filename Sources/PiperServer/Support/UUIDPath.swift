/// Reader paths: `/<uuid v4>`, case-insensitive, answered with the lowercase form.
enum UUIDPath {
    /// The lowercase id when `path` is `/` followed by a UUID v4, else nil. Checked on the bytes in
    /// place (every reader request comes through here twice: the router, then the route).
    static func id(fromPath path: String) -> String? {
        let utf8 = path.utf8
        guard utf8.count == 37 else { return nil }
        if let checked = utf8.withContiguousStorageIfAvailable({ id(bytes: $0) }) { return checked }
        return Array(utf8).withUnsafeBufferPointer { id(bytes: $0) }
    }

    /// The id's 128 bits when `bytes` are `/` and a UUID v4 (any case), else nil: the page
    /// cache's key, read in one pass without making a `String` (every cached GET starts here).
    static func key(bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        guard bytes.count == 37, let base = bytes.baseAddress, base[0] == UInt8(ascii: "/"),
              base[9] == UInt8(ascii: "-"), base[14] == UInt8(ascii: "-"),
              base[19] == UInt8(ascii: "-"), base[24] == UInt8(ascii: "-") else { return nil }
        var halves: (UInt64, UInt64) = (0, 0), invalid: UInt8 = 0, digits = 0
        for offset in 1...36 where offset != 9 && offset != 14 && offset != 19 && offset != 24 {
            let value = hexValues[Int(base[offset])]
            invalid |= value
            if digits < 16 { halves.0 = halves.0 << 4 | UInt64(value & 0x0F) } else { halves.1 = halves.1 << 4 | UInt64(value & 0x0F) }
            digits += 1
        }
        // Version 4 (the 13th digit), RFC 4122 variant (the 17th: 8, 9, a or b).
        guard invalid & 0xF0 == 0, halves.0 >> 12 & 0xF == 4, halves.1 >> 62 == 2 else { return nil }
        return Key(high: halves.0, low: halves.1)
    }

    /// Each byte's hex value, or 0xFF for a byte that is no hex digit.
    private static let hexValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(byte) - UInt8(ascii: "A") + 10
        default: return 0xFF
        }
    }

    /// The key of a lowercase id as `id(fromPath:)` returns it.
    static func key(id: String) -> Key? {
        var path = "/" + id
        return path.withUTF8 { key(bytes: $0) }
    }

    /// A reader id as two 64-bit halves: hashed and compared as two words.
    struct Key: Hashable, Sendable {
        let high: UInt64
        let low: UInt64
    }

    private static func id(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard isIDPath(bytes) else { return nil }
        return String(unsafeUninitializedCapacity: 36) { out in
            for offset in 0..<36 {
                let byte = bytes[offset + 1]
                out[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") ? byte + 32 : byte
            }
            return 36
        }
    }

    private static func isIDPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 37, bytes[0] == UInt8(ascii: "/") else { return false }
        for offset in 0..<36 {
            let byte = bytes[offset + 1]
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard let lower = hexLower(byte) else { return false }
                if offset == 14, lower != UInt8(ascii: "4") { return false }          // version 4
                if offset == 19, !(lower == UInt8(ascii: "8") || lower == UInt8(ascii: "9")
                                   || lower == UInt8(ascii: "a") || lower == UInt8(ascii: "b")) { return false }   // RFC 4122 variant
            }
        }
        return true
    }

    private static func hexLower(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte + 32
        default: return nil
        }
    }
}
