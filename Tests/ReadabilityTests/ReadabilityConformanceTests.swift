import Foundation
import HTML
import Readability
import PiperTestSupport
import Testing

/// Data-driven over the 100 pages of `../shared/corpus/readability`, compared as Mozilla's
/// suite compares them. Prints pass counts and the first difference of each failure; the
/// ratchet in Ratchets/readability.txt fails the run on a regression.
@Suite(.ownThread) struct ReadabilityConformanceTests {
    @Test func corpus() throws {
        let cases = try Corpus.cases()
        try #require(cases.count >= 100, "corpus not found at \(Corpus.folder.path)")
        var passed = 0, strictPassed = 0, readerablePassed = 0
        var failures: [String] = []

        for c in cases {
            let readerable = isProbablyReaderable(Corpus.parse(c.source))
            if readerable == (c.metadata["readerable"] as? Bool) {
                readerablePassed += 1
            } else {
                failures.append("\(c.name) [readerable]: got \(readerable)")
            }

            let doc = Corpus.parse(c.source)
            let article: Article
            do {
                article = try Corpus.pipeline.extract(from: doc, url: Corpus.pageURL)
            } catch {
                failures.append("\(c.name): not an article: \(error)")
                continue
            }
            if let problem = metadataDifference(article, c.metadata) {
                failures.append("\(c.name) [metadata]: \(problem)")
                continue
            }
            let actual = DOMCompare.items(article.content)
            let expected = DOMCompare.items(c.expectedHTML)
            if let diff = DOMCompare.firstDifference(actual: actual, expected: expected, strict: false) {
                failures.append("\(c.name) [content]: \(diff)")
                continue
            }
            passed += 1
            if let diff = DOMCompare.firstDifference(actual: actual, expected: expected, strict: true) {
                failures.append("\(c.name) [strict]: \(diff)")
            } else {
                strictPassed += 1
            }
        }

        for f in failures { print("  FAIL \(f)") }
        print("content+metadata passed \(passed)/\(cases.count)")
        print("strict passed \(strictPassed)/\(cases.count)")
        print("readerable passed \(readerablePassed)/\(cases.count)")
        #expect(try passed >= Corpus.ratchet("content+metadata"))
        #expect(try strictPassed >= Corpus.ratchet("strict"))
        #expect(try readerablePassed >= Corpus.ratchet("readerable"))
    }

    private func metadataDifference(_ article: Article, _ expected: [String: Any]) -> String? {
        let exact: [(String, String?)] = [
            ("title", article.title), ("byline", article.byline), ("excerpt", article.excerpt), ("siteName", article.siteName),
        ]
        for (key, got) in exact {
            let want = expected[key] as? String
            if got != want { return "\(key): got \(got.map { "\"\($0)\"" } ?? "null"), expected \(want.map { "\"\($0)\"" } ?? "null")" }
        }
        let whenGiven: [(String, String?)] = [("dir", article.dir), ("lang", article.lang), ("publishedTime", article.publishedTime)]
        for (key, got) in whenGiven {
            if let want = expected[key] as? String, !want.isEmpty, got != want {
                return "\(key): got \(got.map { "\"\($0)\"" } ?? "null"), expected \"\(want)\""
            }
        }
        return nil
    }
}
