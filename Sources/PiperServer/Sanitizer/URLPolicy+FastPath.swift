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
        var scheme: [UInt8] = []
        for byte in bytes {
            if byte >= 0x80 { return .undecided }
            if byte < 0x20 || byte == 0x7F || byte == 0x20 { continue }
            switch byte {
            case UInt8(ascii: ":"):
                guard !scheme.isEmpty else { return .relative }
                return .scheme(String(decoding: scheme.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self))
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return .relative
            default:
                scheme.append(byte)
            }
        }
        return .relative
    }
}
