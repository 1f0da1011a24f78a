import Foundation

// Input decoding (WHATWG HTML § 13.2.3): pick the document's encoding, then turn the bytes
// into the UTF-8 the tokenizer reads.
//
// Order (§ 13.2.3.1 "encoding sniffing algorithm"):
//   1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE)                     → certain
//   2. the transport layer's charset (HTTP Content-Type, `--encoding`)    → certain
//   3. the `<meta>` prescan of the first 1024 bytes                       → tentative
//   4. autodetection from the bytes (InputDecoding+Detect)                → tentative
//   5. windows-1252                                                       → tentative
// While the confidence is tentative, a `<meta>` the tree builder meets later changes the
// encoding and the input is decoded again from the start (§ 13.2.3.4, `DocumentParser`).

/// How the encoding of a parsed document was decided.
public enum EncodingSource: String, Sendable, Equatable, Codable {
    /// A byte order mark.
    case bom
    /// The transport layer: an HTTP `Content-Type` charset, or a label the caller gave.
    case transport
    /// A `<meta charset>` or `http-equiv` found by the prescan of the first 1024 bytes.
    case meta
    /// Autodetection from the bytes.
    case detected
    /// Nothing decided: windows-1252.
    case `default`
    /// A `<meta>` met while parsing re-decoded the input (§ 13.2.3.4 "change the encoding").
    case changed
}

/// The encoding a document was decoded with, and how it was decided.
public struct DocumentEncoding: Sendable, Equatable {
    /// The WHATWG name of the encoding, lowercase ("utf-8", "windows-1252", "shift_jis").
    public var name: String
    /// Which step of the encoding sniffing algorithm decided it.
    public var source: EncodingSource
    /// Whether the parser may still change it (`.tentative`, when a later `<meta>` disagrees).
    public var confidence: InputDecoder.Confidence

    /// An encoding decision with its source and confidence.
    public init(name: String, source: EncodingSource, confidence: InputDecoder.Confidence) {
        self.name = name
        self.source = source
        self.confidence = confidence
    }
}

/// Turns a document's bytes into UTF-8 (HTML § 13.2.3): the encoding sniffing algorithm,
/// the single-byte and multi-byte decoders, and detection for undeclared legacy pages.
public enum InputDecoder {
    /// The spec's confidence: `certain` (a BOM or the transport said so) or `tentative`.
    public enum Confidence: Sendable, Equatable {
        case certain, tentative
    }

    /// A document decoded to UTF-8, with the encoding used.
    public struct Decoded: Sendable {
        /// The document as UTF-8 (without the byte order mark).
        public var utf8: [UInt8]
        /// The WHATWG name of the encoding used, lowercase ("utf-8", "windows-1252", "shift_jis").
        public var encoding: String
        /// Whether a later `<meta>` may still change the encoding.
        public var confidence: Confidence
        /// How the encoding was decided (never `.changed`: that takes a parse).
        public var source: EncodingSource
    }

    /// What the sniffing algorithm decided.
    public struct Sniffed: Sendable, Equatable {
        /// The encoding, where it came from and how sure it is.
        public var encoding: DocumentEncoding
        /// The length of the byte order mark to skip.
        public var bomLength: Int
    }

    /// How many bytes the `<meta>` prescan looks at (§ 13.2.3.2, as Chromium and Firefox do).
    /// A declaration further on is honoured by the tree builder, which changes the encoding.
    public static let prescanLimit = 1024

    /// Sniffs the encoding of `bytes` and decodes them to UTF-8. `transportEncoding` is the
    /// charset label from the HTTP `Content-Type` header, if any; `tld` and `language` guide
    /// autodetection.
    public static func decode(_ bytes: [UInt8], transportEncoding: String? = nil, tld: String? = nil,
                              language: String? = nil) -> Decoded {
        let sniffed = sniffEncoding(bytes, transportEncoding: transportEncoding, tld: tld, language: language)
        let body = sniffed.bomLength == 0 ? bytes : Array(bytes[sniffed.bomLength...])
        let e = sniffed.encoding
        return Decoded(utf8: decode(body, as: e.name), encoding: e.name, confidence: e.confidence, source: e.source)
    }

    /// The encoding sniffing algorithm alone (the encoding and its confidence).
    public static func sniff(_ bytes: [UInt8], transportEncoding: String?)
        -> (encoding: String, confidence: Confidence, bomLength: Int)
    {
        let s = sniffEncoding(bytes, transportEncoding: transportEncoding)
        return (s.encoding.name, s.encoding.confidence, s.bomLength)
    }

    /// The encoding sniffing algorithm. `complete` says `bytes` is the whole page (not a
    /// prefix of it), which lets the detector trust its last bytes.
    public static func sniffEncoding(_ bytes: [UInt8], transportEncoding: String?, tld: String? = nil,
                                     language: String? = nil, complete: Bool = true) -> Sniffed {
        func found(_ name: String, _ source: EncodingSource, _ confidence: Confidence, bom: Int = 0) -> Sniffed {
            Sniffed(encoding: DocumentEncoding(name: name, source: source, confidence: confidence), bomLength: bom)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return found("utf-8", .bom, .certain, bom: 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return found("utf-16be", .bom, .certain, bom: 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return found("utf-16le", .bom, .certain, bom: 2) }
        if let label = transportEncoding, let encoding = encoding(forLabel: label) {
            return found(encoding, .transport, .certain)
        }
        if let encoding = prescan(bytes.prefix(prescanLimit)) { return found(encoding, .meta, .tentative) }
        let language = language ?? declaredLanguage(bytes.prefix(prescanLimit))
        if let encoding = detect(bytes, tld: tld, language: language, truncated: !complete) {
            return found(encoding, .detected, .tentative)
        }
        return found("windows-1252", .default, .tentative)
    }

    /// Decodes `bytes` (no BOM) from the named WHATWG encoding to UTF-8. Malformed input
    /// becomes U+FFFD, also in an encoding Foundation decodes all or nothing (see +Multibyte);
    /// a name that is no encoding decodes as windows-1252.
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
            if let table = singleByteTable(encoding) { return decodeSingleByte(bytes, table: table) }
            if multibyteEncodings.contains(encoding) { return decodeMultibyte(bytes, as: encoding) }
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

    /// The `lang` of the first `<html lang=…>` in `bytes` (a hint for the detector).
    static func declaredLanguage<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let b = Array(bytes)
        let word = Array(" lang=".utf8)
        guard b.count > word.count else { return nil }
        for i in 0...(b.count - word.count) where b[i] == 0x20 || b[i] == 0x0A {
            guard zip(b[(i + 1)...], word.dropFirst()).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 }) else { continue }
            var j = i + word.count
            if j < b.count, b[j] == 0x22 || b[j] == 0x27 { j += 1 }
            let value = b[j...].prefix { ($0 | 0x20) &- 0x61 < 26 || $0 == 0x2D }
            return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        }
        return nil
    }
}
