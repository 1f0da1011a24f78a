/// Reader paths: `/<uuid v4>`, case-insensitive, answered with the lowercase form.
enum UUIDPath {
    /// The lowercase id when `path` is `/` followed by a UUID v4, else nil.
    static func id(fromPath path: String) -> String? {
        let utf8 = path.utf8
        guard utf8.count == 37, utf8.first == UInt8(ascii: "/") else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (offset, byte) in utf8.dropFirst().enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
                out.append(byte)
            default:
                guard let lower = hexLower(byte) else { return nil }
                if offset == 14, lower != UInt8(ascii: "4") { return nil }          // version 4
                if offset == 19, !"89ab".utf8.contains(lower) { return nil }     // RFC 4122 variant
                out.append(lower)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexLower(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte + 32
        default: return nil
        }
    }
}
