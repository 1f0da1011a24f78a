import HTML

/// A byte-level shortcut for the common case (a plain ASCII URL), so the scalar-by-scalar rule
/// `scheme(of:)` only runs for URLs that need it (`cleaned` has its own in `URLInput`). The
/// shortcut answers exactly what the full rule would, or declines.
extension URLPolicy {
    /// What `scheme(of:)` answers, read from bytes while the scheme part is pure ASCII.
    static func asciiScheme(of url: String) -> ASCIIScheme {
        if let answer = url.utf8.withContiguousStorageIfAvailable({ asciiScheme(bytes: $0) }) { return answer }
        return asciiScheme(bytes: Array(url.utf8))
    }

    enum ASCIIScheme: Equatable {
        /// The lowercased scheme.
        case scheme(String)
        /// A relative URL (no scheme).
        case relative
        /// Non-ASCII before the scheme ended: the scalar rule must decide.
        case undecided
    }

    private static func asciiScheme<C: Collection<UInt8>>(bytes: C) -> ASCIIScheme {
        // First find where the scheme ends; most are a lower-case run like "https" that needs
        // no copy of its own (a short string is built inline, with no allocation).
        var letters = 0
        var asWritten = true   // nothing skipped, nothing upper-case: the bytes are the scheme
        var colon: C.Index?
        scan: for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 { return .undecided }
            if byte < 0x20 || byte == 0x7F || byte == 0x20 { asWritten = false; continue }
            switch byte {
            case UInt8(ascii: ":"):
                guard letters > 0 else { return .relative }
                colon = index
                break scan
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return .relative
            default:
                letters += 1
                if byte >= 0x41 && byte <= 0x5A { asWritten = false }
            }
        }
        guard let colon else { return .relative }
        if asWritten { return .scheme(String(decoding: bytes[bytes.startIndex..<colon], as: UTF8.self)) }
        var scheme: [UInt8] = []
        scheme.reserveCapacity(letters)
        for byte in bytes[bytes.startIndex..<colon] where !(byte < 0x20 || byte == 0x7F || byte == 0x20) {
            scheme.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        return .scheme(String(decoding: scheme, as: UTF8.self))
    }
}
