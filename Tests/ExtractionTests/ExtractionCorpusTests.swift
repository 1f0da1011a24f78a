import CorpusEval
import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// The piper mode's score on a sample of each collection, with its metric, against the
/// committed minimums in Ratchets/extraction.txt.
@Suite(.ownThread)
struct ExtractionCorpusTests {
    static let packageRoot = PiperTestSupport.packageRoot
    static let stride = 5

    /// The committed minimum for `key`; a missing file, line or number is an error.
    static func ratchet(_ key: String) throws -> Int {
        try Ratchet.minimum(key, in: "Tests/ExtractionTests/Ratchets/extraction.txt")
    }

    @Test(arguments: Collection.allCases)
    func pipeModeKeepsItsScore(_ collection: Collection) throws {
        let minimum = try Self.ratchet(collection.rawValue)
        let pages = try collection.pages(in: Collection.corpusFolder(packageRoot: Self.packageRoot), stride: Self.stride)
        try #require(!pages.isEmpty, "no pages in \(collection.rawValue)")
        let summary = try Evaluation.run(collection, pages: pages, mode: .piper)
        var report = String(format: "%@ piper (%d pages): F1 %.3f", collection.rawValue, pages.count, summary.f1())
        if collection == .trafilaturaEval {
            let s = summary.snippets
            report += String(format: " P %.3f R %.3f", s.precision, s.recall)
        } else {
            report += summary.pageTypes.map { String(format: " %@ %.3f", $0, summary.f1(pageType: $0)) }.joined()
        }
        print(report)
        for r in summary.worst(10) { print(String(format: "  worst %.3f %@ (%@)", r.f1, r.page.id, r.page.pageType)) }
        let score = Int((summary.f1() * 1000).rounded(.down))
        #expect(score >= minimum, "\(collection.rawValue): F1 \(score)/1000 fell below the ratchet \(minimum)")
    }

    /// Mozilla's corpus in the piper mode: how many pages keep at least 90% of the expected
    /// article's words.
    @Test func mozillaPagesKeepTheirText() throws {
        let minimum = try Self.ratchet("mozilla-kept")
        let folder = Self.packageRoot.appendingPathComponent("../shared/corpus/readability").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var kept = 0, total = 0
        var lost: [String] = []
        for name in names {
            let dir = folder.appendingPathComponent(name)
            guard let source = try? String(contentsOf: dir.appendingPathComponent("source.html"), encoding: .utf8),
                  let expected = try? String(contentsOf: dir.appendingPathComponent("expected.html"), encoding: .utf8) else { continue }
            total += 1
            let reference = Document.parse(expected, options: ArticlePipeline.parseOptions()).body?.textContent ?? ""
            let document = Document.parse(source, options: ArticlePipeline.parseOptions())
            let text = (try? Extraction.extract(document, url: "http://fakehost/test/page.html", mode: .piper))??.textContent ?? ""
            let recall = Metrics.wordScore(predicted: text, reference: reference).recall
            if recall >= 0.9 { kept += 1 } else { lost.append(String(format: "%@ %.2f", name, recall)) }
        }
        print("mozilla corpus, piper mode: \(kept)/\(total) pages keep 90% of their words; lost: \(lost.joined(separator: ", "))")
        #expect(total > 0)
        #expect(kept >= minimum, "\(kept) pages keep their text, the ratchet is \(minimum)")
    }
}
