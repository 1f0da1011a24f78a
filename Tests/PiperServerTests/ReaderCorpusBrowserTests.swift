import Foundation
import PiperNet
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// Every Readability corpus article saved with its metadata and read back by real headless
/// Chromium (one browser for the whole corpus): the page says what it is (lang, dir, the
/// canonical link to the original, the header), MathML renders as MathML, embeds show their
/// links, and no script runs. Prints passed/total and the first difference of each failure.
/// About six minutes on a quiet machine; the limit is a hang guard with room for a loaded one.
@Suite(.ownThread, .timeLimit(.minutes(20)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct ReaderCorpusBrowserTests {
    static let corpus = SanitizerCorpusTests.corpus

    struct Metadata: Decodable {
        let title: String?
        let byline: String?
        let dir: String?
        let lang: String?
        let siteName: String?
    }

    @Test func everyCorpusArticleReadsBackWhole() async throws {
        let backend = try startBackend()
        var pages: [(name: String, url: String, meta: Metadata, maths: Int, embeds: Int)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted() {
            let folder = Self.corpus.appendingPathComponent(name)
            guard let content = try? String(contentsOf: folder.appendingPathComponent("expected.html"), encoding: .utf8),
                  let data = try? Data(contentsOf: folder.appendingPathComponent("expected-metadata.json")),
                  let meta = try? JSONDecoder().decode(Metadata.self, from: data) else { continue }
            let title = (meta.title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            var object: [String: String] = ["title": title.isEmpty ? name : title, "content": content,
                                            "sourceURL": "https://corpus.example/\(name)/"]
            if let lang = meta.lang, SaveFields.isLanguageTag(lang) { object["lang"] = lang }
            if let dir = meta.dir, SaveFields.directions.contains(dir) { object["dir"] = dir }
            let reply = try await Client.send("POST", backend.baseURL + "/save", body: try JSONSerialization.data(withJSONObject: object),
                                              headers: ["Content-Type": "application/json"])
            try #require(reply.status == 200, "\(name): save answered \(reply.status): \(reply.text)")
            let url = try #require(try reply.json()["url"] as? String)
            let maths = content.components(separatedBy: "<math").count - 1
            let embeds = content.components(separatedBy: "<iframe").count - 1
            pages.append((name, url, meta, maths, embeds))
        }
        #expect(pages.count == 100)
        var loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        // Each page's wait is a hang guard, not a speed check: a loaded machine (the whole suite
        // beside other work) has been seen to take over the default 30 s for one evaluation.
        loader.timeout = 120
        let seen = try loader.inspect(pages.map { URL(string: $0.url)! }, expressions: [
            "document.documentElement.lang",
            "document.documentElement.dir",
            "document.querySelector('link[rel=canonical]') ? document.querySelector('link[rel=canonical]').href : ''",
            "document.querySelector('header.saved h1') ? document.querySelector('header.saved h1').innerText : ''",
            "document.getElementsByTagNameNS('http://www.w3.org/1998/Math/MathML', 'math').length",
            "Array.from(document.querySelectorAll('article a')).filter(a => /^(▶ Video|Embedded content):/.test(a.innerText)).length",
            "typeof window.__piperRan",
        ])
        var passed = 0
        var failures: [String] = []
        for (page, values) in zip(pages, seen) {
            let text = values.map { value in value.map { "\($0)" } ?? "nil" }
            var problems: [String] = []
            if let lang = page.meta.lang, SaveFields.isLanguageTag(lang), text[0] != lang { problems.append("lang \(text[0]) ≠ \(lang)") }
            if let dir = page.meta.dir, SaveFields.directions.contains(dir), text[1] != dir { problems.append("dir \(text[1]) ≠ \(dir)") }
            if text[2] != "https://corpus.example/\(page.name)/" { problems.append("canonical \(text[2])") }
            if text[3].isEmpty { problems.append("no header title") }
            if page.maths > 0, (Int(text[4]) ?? 0) == 0 { problems.append("\(page.maths) <math> saved, none rendered") }
            if page.embeds > 0, (Int(text[5]) ?? 0) == 0 { problems.append("\(page.embeds) embeds saved, no link shown") }
            if text[6] != "undefined" { problems.append("a script ran") }
            if problems.isEmpty { passed += 1 } else { failures.append("\(page.name): \(problems.joined(separator: "; "))") }
        }
        print("reader pages in Chromium: \(passed)/\(pages.count)")
        for failure in failures { print("  \(failure)") }
        #expect(passed == pages.count, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(pages.contains { $0.maths > 0 }, "the corpus has a MathML page (mathjax)")
    }
}
