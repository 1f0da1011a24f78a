/// Writes the small JSON objects the server answers with (`{"url": …}`, `{"error": …}`) without
/// a `JSONEncoder` per response. The bytes match `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes`; `JSONTextTests` compares the two.
enum JSONText {
    /// `{"key":"value"}` for a one-entry object; nil for any other size (the caller falls back to
    /// `JSONEncoder`, whose key order then decides).
    static func object(_ object: [String: String]) -> [UInt8]? {
        guard object.count == 1, let (key, value) = object.first else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(key.utf8.count + value.utf8.count + 8)
        out.append(UInt8(ascii: "{"))
        appendString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        appendString(value, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Appends `text` as a JSON string literal: quote, backslash and C0 controls escaped,
    /// everything else (slashes, non-ASCII) as UTF-8.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
