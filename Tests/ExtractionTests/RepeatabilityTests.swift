import CorpusEval
import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// An extraction depends on the page alone: the same page extracted again in the same
/// process, after other pages, gives the same text in both modes.
@Suite(.ownThread) struct RepeatabilityTests {
    /// A UTF-8 page without a declared charset whose bytes after the first non-ASCII
    /// character end on a 32-byte stride of ASCII within the detection limit: the detector
    /// once called it Shift_JIS or UTF-8 from run to run.
    static let page = "auto.oe24.at-golfchina.html"

    static func pages() throws -> [CorpusPage] {
        try Collection.trafilaturaEval.pages(in: Collection.corpusFolder(packageRoot: PiperTestSupport.packageRoot))
    }

    @Test(arguments: ExtractionMode.allCases)
    func samePageSameTextAfterOtherPages(_ mode: ExtractionMode) throws {
        let all = try Self.pages()
        let target = try #require(all.first { $0.id == Self.page })
        let others = all.filter { $0.id != Self.page }.prefix(12)
        let bytes = try target.bytes()
        var texts: [String] = []
        for other in [nil] + others.map(Optional.some) {
            if let other {
                let document = Document.parse(bytes: try other.bytes(), options: ArticlePipeline.parseOptions())
                _ = try Extraction.extract(document, url: nil, mode: mode)
            }
            for _ in 0..<3 {
                let document = Document.parse(bytes: bytes, options: ArticlePipeline.parseOptions())
                #expect(document.encoding?.name == "utf-8")
                let article = try #require(try Extraction.extract(document, url: nil, mode: mode))
                texts.append(article.textContent)
            }
        }
        #expect(texts.allSatisfy { $0.contains("für") }, "the page is UTF-8 German text")
        #expect(Set(texts).count == 1, "\(Set(texts).count) different texts from one page in one process")
    }
}
