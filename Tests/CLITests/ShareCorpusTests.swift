import Foundation
import HTML
import PiperTestSupport
import Testing

/// Every Readability corpus page shared end to end (`--browser never`) through `piper share`
/// to a real `piper serve`, and extracted from the same URL by `piper extract --html`: both go
/// through the one article pipeline, so they must agree. A page refused by one is refused by
/// the other (exit 65, the corpus's tiniest fixtures hold under 140 characters of text); a page
/// saved by both is served with the text `piper extract` printed, compared as `ArticleText`
/// normalizes it. Prints agreed/total and the first difference of each disagreement; the
/// ratchet fails the test if fewer pages agree than before.
@Suite(.timeLimit(.minutes(10))) struct ShareCorpusTests {
    static let ratchet = 100

    @Test func everyCorpusPageIsServedWithTheTextPiperExtractPrints() async throws {
        let corpus = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
            FileManager.default.fileExists(atPath: corpus.appendingPathComponent("\($0)/source.html").path)
        }.sorted()
        try #require(names.count >= 100)
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: corpus)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"), extraArguments: ["--rate-limit", "0"])
        defer { backend.stop() }
        let home = dir.appendingPathComponent("home")

        var agreed = 0, served = 0, refused = 0
        for name in names {
            let link = site.url("/\(name)/source.html").absoluteString
            let extract = try PiperBinary.run(["extract", "--html", "--browser", "never", link], home: home)
            let share = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL, link],
                                            home: home)
            if extract.status == 65 && share.status == 65 {
                refused += 1
                agreed += 1
                continue
            }
            guard extract.status == 0, share.status == 0 else {
                print("share corpus: \(name): extract exit \(extract.status), share exit \(share.status): "
                      + "\(share.stderr.split(separator: "\n").last ?? "") / \(extract.stderr.split(separator: "\n").last ?? "")")
                continue
            }
            let (status, page) = try await httpGet(share.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            guard status == 200, let text = ArticleText.served(page) else {
                print("share corpus: \(name): GET answered \(status) without a reader article")
                continue
            }
            let expected = ArticleText.extracted(extract.stdout)
            if let difference = ArticleText.firstDifference(text, expected) {
                print("share corpus: \(name): served text differs from piper extract's: \(difference)")
                continue
            }
            served += 1
            agreed += 1
        }
        print("share corpus: \(agreed)/\(names.count) pages agree (\(served) served with extract's text, "
              + "\(refused) refused by both; ratchet \(Self.ratchet))")
        #expect(agreed >= Self.ratchet, "fewer corpus pages agree between piper share and piper extract than the ratchet")
    }
}

/// The article text on both sides, whitespace collapsed (runs of whitespace become one space,
/// ends trimmed): the sanitizer re-serializes markup and block boundaries move whitespace.
/// The served side is the reader page's `<article>` without the `<header class="saved">` the
/// server adds (title, byline, "Original:" link). The sanitizer's documented changes that leave
/// no text difference on this corpus need no normalizing: scripts, styles, forms, comments and
/// foreign markup are already gone from Readability's output, and attributes are not text.
enum ArticleText {
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The text of `piper extract --html`'s output.
    static func extracted(_ html: String) -> String {
        let document = Document.parse(html)
        return withExtendedLifetime(document) { collapse(document.body?.textContent ?? "") }
    }

    /// The text of the reader page's article, or nil when the page holds none.
    static func served(_ page: String) -> String? {
        let document = Document.parse(page)
        return withExtendedLifetime(document) { () -> String? in
            guard let article = document.body?.descendantElements(named: ["article"]).first else { return nil }
            var text = ""
            for child in article.childNodes where !(child.hasTag("header") && child.className == "saved") {
                text += child.textContent
            }
            return collapse(text)
        }
    }

    /// nil when equal, else the text around the first differing character.
    static func firstDifference(_ actual: String, _ expected: String) -> String? {
        guard actual != expected else { return nil }
        let a = Array(actual), e = Array(expected)
        var i = 0
        while i < a.count && i < e.count && a[i] == e[i] { i += 1 }
        let from = max(0, i - 40)
        return "at character \(i): served …\(String(a[from..<min(a.count, i + 60)]))… "
            + "extract …\(String(e[from..<min(e.count, i + 60)]))…"
    }
}
