import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The standard-library trims stand in for Foundation's `trimmingCharacters(in:)` on the share
/// path: they must remove exactly what it removes.
@Suite(.ownThread) struct WhitespaceTrimTests {
    @Test func scalarClassesEqualFoundationsCharacterSets() {
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if UnicodeWhitespace.isWhitespace(scalar) != CharacterSet.whitespaces.contains(scalar) {
                mismatches.append("whitespaces U+\(String(value, radix: 16))")
            }
            if UnicodeWhitespace.isWhitespaceOrNewline(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                mismatches.append("whitespacesAndNewlines U+\(String(value, radix: 16))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    @Test(arguments: ["", " ", "\t a b \n", "\u{00A0}x\u{3000}", "\u{2028}line\u{2029}", "\r\nword\u{85}",
                      "e\u{301} ", " \u{301}x", "no-trim", "  \u{1F600}  ", "\u{200B}zero-width\u{200B}"])
    func trimsEqualFoundations(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Substring(text).trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func loopbackHostsInBrackets() {
        #expect(Config.isLoopback("[::1]"))
        #expect(Config.isLoopback("LOCALHOST"))
        #expect(!Config.isLoopback("[::2]"))
    }

    @Test func charsetIsUnquoted() {
        #expect(ContentType.charset(of: "text/html; charset=\"UTF-8\"") == "UTF-8")
        #expect(ContentType.charset(of: "text/html; Charset = 'latin1' ") == "latin1")
        #expect(ContentType.mediaType(of: " Text/HTML ; charset=x") == "text/html")
    }
}
