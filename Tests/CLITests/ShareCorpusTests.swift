import Foundation
import HTML
import PiperTestSupport
import Testing

/// Every Readability corpus page shared end to end (`--browser never`) through `piper share`
/// (`--as article`) to a real `piper serve`, and extracted from the same URL by `piper extract --html`: both go
/// through the one article pipeline, so they must agree. A page refused by one is refused by
/// the other (exit 65, the corpus's tiniest fixtures hold under 140 characters of text); a page
/// saved by both is served with the text `piper extract` printed, compared as `ArticleText`
/// normalizes it. Prints agreed/total and the first difference of each disagreement; the
/// ratchet fails the test if fewer pages agree than before.
/// About three minutes on a quiet machine; the limit is a hang guard with room for a loaded one.
@Suite(.ownThread, .timeLimit(.minutes(20))) struct ShareCorpusTests {

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
            // --as article: a corpus page that links a media file (hukumusume's audio) would
            // otherwise go to the library; `piper extract` always takes the page as an article.
            let share = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--as", "article",
                                             "--backend", backend.baseURL, link], home: home)
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
                print("share corpus: \(name): GET answered \(status) without a reader article (share printed \(share.stdout))")
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
        let ratchet = try Ratchet.minimum("share-corpus", in: "Tests/CLITests/Ratchets/share-corpus.txt")
        print("share corpus: \(agreed)/\(names.count) pages agree (\(served) served with extract's text, "
              + "\(refused) refused by both; ratchet \(ratchet))")
        #expect(agreed >= ratchet, "fewer corpus pages agree between piper share and piper extract than the ratchet")
    }
}

/// The article text on both sides, whitespace collapsed (runs of whitespace become one space,
/// ends trimmed): the sanitizer re-serializes markup and block boundaries move whitespace.
/// The served side is the reader page's `<article>` without the `<header class="saved">` the
/// server adds (title, byline, "Original:" link). The sanitizer's documented changes that touch
/// text (`HTMLSanitizer+Foreign`) are undone:
/// - an `<svg>` becomes `<span>[figure omitted]</span>`: the placeholder is dropped on the served
///   side, the SVG's own text on the extract side;
/// - an `iframe`/`embed`/`object`/`video` with a source becomes a link "▶ Video: host/path" or
///   "Embedded content: host": the link is dropped on the served side, the element (and any
///   fallback text in it) on the extract side.
/// Scripts, styles, forms, comments and attributes need nothing: Readability's output holds no
/// scripts or styles, and attributes are not text.
enum ArticleText {
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static let embedSources = ["iframe": "src", "embed": "src", "object": "data", "video": "src"]

    /// The text of `piper extract --html`'s output, without what the sanitizer replaces.
    static func extracted(_ html: String) -> String {
        let document = Document.parse(html)
        return withExtendedLifetime(document) { () -> String in
            guard let body = document.body else { return "" }
            return collapse(text(of: body) { node in
                if node.namespace == .svg && node.localName == "svg" { return true }
                if let attribute = embedSources[node.localName], node.namespace == .html, node.hasAttribute(attribute) { return true }
                return false
            })
        }
    }

    /// The text of the reader page's article, or nil when the page holds none.
    static func served(_ page: String) -> String? {
        let document = Document.parse(page)
        return withExtendedLifetime(document) { () -> String? in
            guard let article = document.body?.descendantElements(named: ["article"]).first else { return nil }
            return collapse(text(of: article) { node in
                if node.parent == article && node.hasTag("header") && node.className == "saved" { return true }
                if node.hasTag("span") && node.textContent == "[figure omitted]" { return true }
                if node.hasTag("a") {
                    let label = node.textContent
                    return label.hasPrefix("▶ Video: ") || label.hasPrefix("Embedded content: ")
                }
                return false
            })
        }
    }

    /// `textContent` of `root`, leaving out the subtrees of elements `skip` picks.
    static func text(of root: Node, skip: (Node) -> Bool) -> String {
        var out = ""
        var stack = Array(root.childNodes.reversed())
        while let node = stack.popLast() {
            if node.isText {
                out += node.data
            } else if node.isElement, !skip(node) {
                stack.append(contentsOf: node.childNodes.reversed())
            }
        }
        return out
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
