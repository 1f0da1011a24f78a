// Many `Tuning` variants over a collection in one process: each page is read and parsed once,
// and every variant extracts it from its own copy of the parsed document (`Document.copy`), so
// a variant costs its extraction only. For the tuning search (scripts/tune-extraction), through
// `piper-bench-extraction --variants FILE --scores FILE`.
import Foundation
import HTML
import Extraction

/// One page's score under one variant: what the page adds to its collection's metric.
public struct VariantScore: Sendable {
    /// trafilatura-eval: the page's snippet counts (summed over a fold).
    public let snippets: SnippetCounts
    /// wcxb-dev: the page's word F1 (averaged over a fold).
    public let f1: Double
}

extension Evaluation {
    /// Each page parsed once and extracted in the piper mode under every tuning of `tunings`,
    /// with the pipeline's policy; `[variant][page]`, pages in `pages`' order.
    public static func runVariants(_ collection: Collection, pages: [CorpusPage], tunings: [Tuning]) throws -> [[VariantScore]] {
        var scores: [[VariantScore]] = Array(repeating: [], count: tunings.count)
        for page in pages {
            let parsed = Document.parse(bytes: try page.bytes(), options: ArticlePipeline.parseOptions())
            for (k, tuning) in tunings.enumerated() {
                let article = try? ArticlePipeline(mode: .piper, tuning: tuning).extract(from: parsed.copy(), url: page.url)
                scores[k].append(score(collection, text: article?.textContent, page: page))
            }
        }
        return scores
    }

    static func score(_ collection: Collection, text: String?, page: CorpusPage) -> VariantScore {
        switch collection {
        case .trafilaturaEval:
            var counts = SnippetCounts()
            counts.add(text: text, page: page)
            return VariantScore(snippets: counts, f1: counts.f1)
        case .wcxbDev:
            return VariantScore(snippets: SnippetCounts(), f1: Metrics.wordScore(predicted: text ?? "", reference: page.reference).f1)
        }
    }
}
