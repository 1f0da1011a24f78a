/// Whitespace trimming in the standard library. Foundation's `trimmingCharacters(in:)` bridges
/// to `NSString` on Linux, and its first call builds `CharacterSet`'s tables: on `piper share`'s
/// path that was about 3 % of the command's CPU time, most of it that one-time setup.
extension StringProtocol {
    /// The same characters `trimmingCharacters(in: .whitespaces)` removes from each end: tab,
    /// the space separators (Unicode category Zs) and U+200B ZERO WIDTH SPACE (Foundation's
    /// set on Linux keeps it from the days it was a Zs).
    public func trimmingWhitespace() -> String { trimmingScalars(where: UnicodeWhitespace.isWhitespace) }

    /// The same characters `trimmingCharacters(in: .whitespacesAndNewlines)` removes from each
    /// end: those of `trimmingWhitespace()` and U+000A–U+000D, U+0085, U+2028, U+2029.
    public func trimmingWhitespaceAndNewlines() -> String { trimmingScalars(where: UnicodeWhitespace.isWhitespaceOrNewline) }

    /// This text without the scalars `isTrimmed` accepts at either end.
    func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, isTrimmed(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isTrimmed(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}

/// The scalar classes of Foundation's `CharacterSet.whitespaces` and `.whitespacesAndNewlines`.
public enum UnicodeWhitespace {
    public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09, 0x200B: return true
        case 0..<0x80: return false
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }

    public static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return isWhitespace(scalar)
        }
    }
}
