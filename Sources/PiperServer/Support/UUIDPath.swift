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

    private static func id(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count == 37, bytes[0] == UInt8(ascii: "/") else { return nil }
        for offset in 0..<36 {
            let byte = bytes[offset + 1]
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
            default:
                guard let lower = hexLower(byte) else { return nil }
                if offset == 14, lower != UInt8(ascii: "4") { return nil }          // version 4
                if offset == 19, !(lower == UInt8(ascii: "8") || lower == UInt8(ascii: "9")
                                   || lower == UInt8(ascii: "a") || lower == UInt8(ascii: "b")) { return nil }   // RFC 4122 variant
            }
        }
        return String(unsafeUninitializedCapacity: 36) { out in
            for offset in 0..<36 {
                let byte = bytes[offset + 1]
                out[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") ? byte + 32 : byte
            }
            return 36
        }
    }

    private static func hexLower(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte + 32
        default: return nil
        }
    }
}
