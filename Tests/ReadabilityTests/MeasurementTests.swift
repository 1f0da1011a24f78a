import Foundation
import HTML
@testable import Readability
import PiperTestSupport
import Testing

/// The one-walk measurements must answer exactly what the per-node walks answer.
@Suite(.ownThread) struct MeasurementTests {
    /// `LinkDensityIndex` against `getLinkDensity` for every element of every corpus page.
    @Test func linkDensityIndexMatchesPerNodeWalk() throws {
        var compared = 0
        var mismatches: [String] = []
        for page in try Corpus.cases() {
            let doc = Corpus.parse(page.source)
            let reader = Readability(doc, url: Corpus.pageURL)
            let index = LinkDensityIndex(root: doc.node)
            for node in doc.node.descendants where node.isElement {
                let fromIndex = try #require(index.linkDensity(node))
                let walked = reader.getLinkDensity(node)
                compared += 1
                if fromIndex != walked && mismatches.count < 5 {
                    mismatches.append("\(page.name) \(node): index \(fromIndex), walk \(walked)")
                }
            }
        }
        #expect(compared > 10_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Joining text spans equals scanning the joined text, across whitespace at the seams.
    @Test func textSpansJoinLikeTheirText() {
        let pieces = ["", " ", "  ", "a", " a", "a ", " a b ", "\n\t", "\u{A0}", "x\u{A0}\u{A0}y", "é", "😀 ", ",,"]
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let joined = TextSpan(text: a).followed(by: TextSpan(text: b)).followed(by: TextSpan(text: c))
                    var scanner = TextScanner(normalizeSpaces: true)
                    scanner.scan(a + b + c)
                    #expect(joined.length == scanner.stats.length, "\(a.debugDescription) + \(b.debugDescription) + \(c.debugDescription)")
                }
            }
        }
    }

    /// A text node's cached piece moves a scanner exactly as scanning its text does, in both
    /// whitespace modes and across whitespace at the seams.
    @Test func textPiecesScanLikeTheirText() {
        let pieces = ["", " ", "  ", "a", " a", "a ", " a  b ", "\n\t", "\u{A0}", "x\u{A0}\u{A0}y", "é,", "😀 ", ",,", "a\u{60C}b"]
        for normalize in [true, false] {
            for a in pieces {
                for b in pieces {
                    for c in pieces {
                        var folded = TextScanner(normalizeSpaces: normalize)
                        for text in [a, b, c] { folded.add(TextPiece(text: text)) }
                        var scanned = TextScanner(normalizeSpaces: normalize)
                        scanned.scan(a + b + c)
                        let same = folded.stats.length == scanned.stats.length && folded.stats.asciiCommas == scanned.stats.asciiCommas
                            && folded.stats.allCommas == scanned.stats.allCommas && folded.seenContent == scanned.seenContent
                            && folded.leadingSpace == scanned.leadingSpace && folded.pendingSpaces == scanned.pendingSpaces
                        #expect(same, "\(normalize) \(a.debugDescription) + \(b.debugDescription) + \(c.debugDescription)")
                    }
                }
            }
        }
    }

    /// Text measured through the pieces equals scanning each element's whole text content,
    /// for every element of every corpus page.
    @Test func textStatsMatchScanningTextContent() throws {
        var compared = 0
        var mismatches: [String] = []
        for page in try Corpus.cases() {
            let doc = Corpus.parse(page.source)
            let reader = Readability(doc, url: Corpus.pageURL)
            for node in doc.node.descendants where node.isElement {
                for normalize in [true, false] {
                    let stats = reader.textStats(node, normalizeSpaces: normalize)
                    var scanner = TextScanner(normalizeSpaces: normalize)
                    scanner.scan(node.textContent)
                    compared += 1
                    if (stats.length, stats.asciiCommas, stats.allCommas) != (scanner.stats.length, scanner.stats.asciiCommas, scanner.stats.allCommas),
                       mismatches.count < 5 {
                        mismatches.append("\(page.name) \(node) normalize \(normalize)")
                    }
                }
            }
        }
        #expect(compared > 20_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The URL fast paths leave alone what the full parse would leave alone, and only that.
    @Test func urlFastPaths() {
        #expect(URLInput.stripped("http://a/b") == "http://a/b")
        #expect(URLInput.stripped(" \thttp://a/\nb\u{1} ") == "http://a/b")
        for path in ["/a/./b", "/a/../b", "/a/%2E/b", "/a/.%2e", "/..", "/."] { #expect(ResolvedURL.hasDotSegment(path), "\(path)") }
        for path in ["/a/b.c", "/.well-known/x", "/a/...", "/%2ex", "/"] { #expect(!ResolvedURL.hasDotSegment(path), "\(path)") }
        #expect(ResolvedURL.encode("/a b", set: .path) == "/a%20b")
        #expect(ResolvedURL.encode("/plain/path", set: .path) == "/plain/path")
        #expect(ResolvedURL.encode("q='x'", set: .specialQuery) == "q=%27x%27")
        let base = ResolvedURL.parse("http://fakehost/test/page.html")!
        #expect(ResolvedURL.resolve("../img/a.png", base: base) == "http://fakehost/img/a.png")
        #expect(ResolvedURL.resolve("/x/./y z", base: base) == "http://fakehost/x/y%20z")
        #expect(ResolvedURL.resolve("  b.html\n", base: base) == "http://fakehost/test/b.html")
    }

    @Test func utf16LengthFromUTF8() {
        for s in ["", "abc", "é", "日本語", "😀", "a😀b\u{A0}"] { #expect(JSString.length(s) == s.utf16.count, "\(s)") }
    }
}
