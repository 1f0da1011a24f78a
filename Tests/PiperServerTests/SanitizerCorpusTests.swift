import Foundation
import HTML
import PiperTestSupport
import Testing
@testable import PiperServer

/// Readability's expected outputs are exactly the kind of HTML `/save` receives. Sanitizing
/// must keep their text (whitespace aside) and must be stable (sanitizing twice changes
/// nothing). Prints passed/total and the first difference of each failure; the committed
/// ratchet is the minimum pass count.
@Suite(.ownThread) struct SanitizerCorpusTests {
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/readability")

    /// `words` without the placeholders the sanitizer writes for what it removed: "[figure
    /// omitted]" for SVG, "▶ Video: host/path" and "Embedded content: host" for embeds.
    static func wordsWithoutPlaceholders(_ html: String) -> [Substring] {
        var words = Self.words(html)[...]
        var kept: [Substring] = []
        while let word = words.first {
            let next = words.dropFirst().first
            if word == "[figure" && next == "omitted]" { words = words.dropFirst(2); continue }
            if (word == "▶" && next == "Video:") || (word == "Embedded" && next == "content:") { words = words.dropFirst(3); continue }
            kept.append(word)
            words = words.dropFirst()
        }
        return kept
    }

    static func words(_ html: String) -> [Substring] {
        let (document, fragment) = Document.parseFragment(html, context: "div")
        return withExtendedLifetime(document) { fragment.textContent.split(whereSeparator: { $0.isWhitespace }) }
    }

    @Test func readabilityOutputsKeepTheirTextAndAreStable() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        var passed = 0, total = 0
        for name in names {
            let file = Self.corpus.appendingPathComponent(name).appendingPathComponent("expected.html")
            guard let html = try? String(contentsOf: file, encoding: .utf8) else { continue }
            total += 1
            let clean = HTMLSanitizer.sanitize(html)
            let before = Self.words(html), after = Self.wordsWithoutPlaceholders(clean)
            if before != after {
                let index = (0..<min(before.count, after.count)).first { before[$0] != after[$0] } ?? min(before.count, after.count)
                print("sanitizer corpus: \(name): text differs at word \(index): " +
                      "\(before.dropFirst(index).prefix(5)) vs \(after.dropFirst(index).prefix(5))")
                continue
            }
            guard HTMLSanitizer.sanitize(clean) == clean else {
                print("sanitizer corpus: \(name): second pass changed the output")
                continue
            }
            passed += 1
        }
        print("sanitizer corpus: \(passed)/\(total)")
        try #require(total > 0, "no corpus at \(Self.corpus.path)")
        let minimum = try Ratchet.minimum("sanitizer-corpus", in: "Tests/PiperServerTests/Ratchets/sanitizer.txt")
        #expect(passed >= minimum, "ratchet: \(passed) passed, at least \(minimum) expected")
    }
}
