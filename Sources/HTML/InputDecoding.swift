import Foundation

// Input decoding (WHATWG HTML § 13.2.3): pick the document's encoding, then turn the bytes
// into the UTF-8 the tokenizer reads.
//
// Order (§ 13.2.3.1 "encoding sniffing algorithm", without the optional steps):
//   1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE)      → certain
//   2. the transport layer's charset (HTTP Content-Type)  → certain
//   3. the `<meta>` prescan of the first 16 KiB           → tentative
//   4. windows-1252                                       → tentative

public enum InputDecoder {
    public enum Confidence: Sendable, Equatable {
        case certain, tentative
    }

    public struct Decoded: Sendable {
        /// The document as UTF-8 (without the byte order mark).
        public var utf8: [UInt8]
        /// The WHATWG name of the encoding used, lowercase ("utf-8", "windows-1252", "shift_jis").
        public var encoding: String
        public var confidence: Confidence
    }

    /// How many bytes the `<meta>` prescan looks at. The spec suggests 1024, but pages (and
    /// html5lib's encoding tests) put the `<meta>` after long comments and scripts, and the
    /// prescan is a cheap linear scan, so we look further.
    public static let prescanLimit = 16384

    /// Sniffs the encoding of `bytes` and decodes them to UTF-8. `transportEncoding` is the
    /// charset label from the HTTP `Content-Type` header, if any.
    public static func decode(_ bytes: [UInt8], transportEncoding: String? = nil) -> Decoded {
        let sniffed = sniff(bytes, transportEncoding: transportEncoding)
        let body = sniffed.bomLength == 0 ? bytes : Array(bytes[sniffed.bomLength...])
        return Decoded(utf8: decode(body, as: sniffed.encoding), encoding: sniffed.encoding,
                       confidence: sniffed.confidence)
    }

    /// The encoding sniffing algorithm alone.
    public static func sniff(_ bytes: [UInt8], transportEncoding: String?)
        -> (encoding: String, confidence: Confidence, bomLength: Int)
    {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("utf-8", .certain, 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("utf-16be", .certain, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("utf-16le", .certain, 2) }
        if let label = transportEncoding, let encoding = encoding(forLabel: label) {
            return (encoding, .certain, 0)
        }
        if let encoding = prescan(bytes.prefix(prescanLimit)) {
            return (encoding, .tentative, 0)
        }
        return ("windows-1252", .tentative, 0)
    }

    /// Decodes `bytes` (no BOM) from the named WHATWG encoding to UTF-8. Malformed input
    /// becomes U+FFFD; an encoding Foundation cannot decode here falls back to windows-1252.
    public static func decode(_ bytes: [UInt8], as encoding: String) -> [UInt8] {
        switch encoding {
        case "utf-8":
            return validUTF8(bytes)
        case "windows-1252":
            return decodeWindows1252(bytes)
        case "x-user-defined":
            return decodeUserDefined(bytes)
        case "utf-16le", "utf-16be":
            return decodeUTF16(bytes, bigEndian: encoding == "utf-16be")
        case "replacement":
            return bytes.isEmpty ? [] : [0xEF, 0xBF, 0xBD]
        case "euc-jp":
            return decodeEUCJP(bytes)
        default:
            if let raw = foundationEncodings[encoding],
               let s = String(data: Data(bytes), encoding: String.Encoding(rawValue: raw)) {
                return Array(s.utf8)
            }
            return decodeWindows1252(bytes)
        }
    }

    /// Whether `decode(_:as:)` decodes `encoding` itself rather than falling back.
    public static func canDecode(_ encoding: String) -> Bool {
        switch encoding {
        case "utf-8", "windows-1252", "x-user-defined", "utf-16le", "utf-16be", "replacement", "euc-jp": return true
        default: return foundationEncodings[encoding] != nil
        }
    }
}
