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
    /// cache's key, read without making a `String`.
    static func key(bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        guard isIDPath(bytes) else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for offset in 0..<36 where !(offset == 8 || offset == 13 || offset == 18 || offset == 23) {
            let nibble = UInt64(hexValue(bytes[offset + 1]))
            if digits < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
            digits += 1
        }
        return Key(high: high, low: low)
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

    /// A checked hex digit's value.
    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return byte - UInt8(ascii: "A") + 10
        }
    }
}
