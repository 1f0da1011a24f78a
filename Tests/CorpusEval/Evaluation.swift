// Runs one extraction mode over a collection's pages and scores it with the collection's metric.
import Foundation
import HTML
import Extraction

/// One page's outcome.
public struct PageResult: Sendable {
    public let page: CorpusPage
    /// The plain text extracted (nil: no article).
    public let text: String?
    /// The reader HTML extracted (nil: no article).
    public let content: String?
    /// wcxb-dev word F1, or the page's snippet F1 share for trafilatura-eval.
    public let f1: Double
    /// Milliseconds spent parsing and extracting.
    public let milliseconds: Double
}

/// A collection's score for one mode.
public struct EvaluationSummary: Sendable {
    public let collection: Collection
    public let mode: ExtractionMode
    public let results: [PageResult]

    /// trafilatura-eval: the summed snippet counts.
    public var snippets: SnippetCounts {
        var counts = SnippetCounts()
        for r in results { counts.add(text: r.text, page: r.page) }
        return counts
    }

    /// The collection's F1: snippet F1 (trafilatura-eval) or mean word F1 (wcxb-dev), over the
    /// pages of `pageType` (nil: all).
    public func f1(pageType: String? = nil) -> Double {
        let chosen = results.filter { pageType == nil || $0.page.pageType == pageType }
        if chosen.isEmpty { return 0 }
        switch collection {
        case .trafilaturaEval:
            var counts = SnippetCounts()
            for r in chosen { counts.add(text: r.text, page: r.page) }
            return counts.f1
        case .wcxbDev:
            return chosen.map(\.f1).reduce(0, +) / Double(chosen.count)
        }
    }

    /// Page types present, most pages first.
    public var pageTypes: [String] {
        var counts: [String: Int] = [:]
        for r in results { counts[r.page.pageType, default: 0] += 1 }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    public var millisecondsPerPage: Double {
        results.isEmpty ? 0 : results.map(\.milliseconds).reduce(0, +) / Double(results.count)
    }

    /// The `n` pages with the lowest F1.
    public func worst(_ n: Int) -> [PageResult] {
        Array(results.sorted { $0.f1 < $1.f1 }.prefix(n))
    }
}

public enum Evaluation {
    /// Parses each page as `piper extract` does (scripting off, encoding sniffed), extracts it
    /// in `mode` and applies the pipeline's policy as `piper extract` and `piper share` do: a
    /// page with fewer than 140 characters of article text holds no article, and gives no text.
    /// With `rounds` above 1, each page is parsed and extracted that many times in a row and
    /// its time is the least of them (the output of every round is the same).
    public static func run(_ collection: Collection, pages: [CorpusPage], mode: ExtractionMode, rounds: Int = 1,
                           tuning: Tuning = .standard) throws -> EvaluationSummary {
        try run(collection, pages: pages, modes: [mode], rounds: rounds, tuning: tuning)[0]
    }

    /// `run` for several modes, interleaved: each page is extracted in every mode in turn,
    /// `rounds` times over, so the modes' times of a page are taken moments apart, under the
    /// same load of a shared machine (run one after the other, minutes apart, they are not).
    /// The piper mode decides by `tuning` (a development run's overrides; default the standard).
    public static func run(_ collection: Collection, pages: [CorpusPage], modes: [ExtractionMode], rounds: Int = 1,
                           tuning: Tuning = .standard) throws -> [EvaluationSummary] {
        var results: [[PageResult]] = Array(repeating: [], count: modes.count)
        for page in pages {
            let bytes = try page.bytes()
            var outputs: [(text: String?, content: String?)] = Array(repeating: (nil, nil), count: modes.count)
            var ms = [Double](repeating: .infinity, count: modes.count)
            for round in 0..<max(1, rounds) {
                // Every other round the other way round: no mode always goes first, on a
                // page whose bytes the one before had just brought into the caches.
                for k in round % 2 == 0 ? Array(modes.indices) : modes.indices.reversed() {
                    let mode = modes[k]
                    // The thread's CPU time, not the wall clock: other work on a shared machine
                    // then counts less.
                    let start = threadCPUNanoseconds()
                    let document = Document.parse(bytes: bytes, options: ArticlePipeline.parseOptions())
                    let article = try? ArticlePipeline(mode: mode, tuning: tuning).extract(from: document, url: page.url)
                    ms[k] = min(ms[k], Double(threadCPUNanoseconds() - start) / 1e6)
                    outputs[k] = (article?.textContent, article?.content)
                }
            }
            for k in modes.indices {
                let (text, content) = outputs[k]
                let f1 = score(collection, text: text, page: page).f1
                results[k].append(PageResult(page: page, text: text, content: content, f1: f1, milliseconds: ms[k]))
            }
        }
        return modes.indices.map { EvaluationSummary(collection: collection, mode: modes[$0], results: results[$0]) }
    }
}

/// CPU time this thread has used, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
