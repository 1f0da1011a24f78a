// The collections' own metrics.
//   trafilatura-eval: whitespace-normalized substring tests of snippets, counts summed over pages.
//   wcxb-dev: word-level F1 per page (lowercased \w+ tokens as multisets), averaged.
import Foundation

/// Snippet counts (trafilatura-eval).
public struct SnippetCounts: Sendable {
    public var tp = 0, fn = 0, fp = 0, tn = 0

    public init() {}

    /// Scores `text` (nil: no output) against one page's snippets and adds the counts.
    public mutating func add(text: String?, page: CorpusPage) {
        guard let text else { fn += page.with.count; tn += page.without.count; return }
        let normalized = Metrics.normalizeSpaces(text)
        for s in page.with { if normalized.contains(Metrics.normalizeSpaces(s)) { tp += 1 } else { fn += 1 } }
        for s in page.without { if normalized.contains(Metrics.normalizeSpaces(s)) { fp += 1 } else { tn += 1 } }
    }

    public var precision: Double { tp + fp == 0 ? 0 : Double(tp) / Double(tp + fp) }
    public var recall: Double { tp + fn == 0 ? 0 : Double(tp) / Double(tp + fn) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
}

/// Word F1 of one page (wcxb-dev).
public struct WordScore: Sendable {
    public let precision: Double
    public let recall: Double
    public let f1: Double
}

public enum Metrics {
    /// Every run of whitespace becomes one space; trimmed.
    public static func normalizeSpaces(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Lowercased `\w+` tokens (letters, digits, marks, underscore).
    public static func words(_ s: String) -> [Substring] {
        s.lowercased().split(whereSeparator: { c in
            !(c.isLetter || c.isNumber || c == "_" || c.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark })
        })
    }

    /// Word-level F1 of `predicted` against `reference`.
    public static func wordScore(predicted: String, reference: String) -> WordScore {
        let p = words(predicted), r = words(reference)
        if r.isEmpty { return p.isEmpty ? WordScore(precision: 1, recall: 1, f1: 1) : WordScore(precision: 0, recall: 0, f1: 0) }
        if p.isEmpty { return WordScore(precision: 0, recall: 0, f1: 0) }
        var counts: [Substring: Int] = [:]
        for w in r { counts[w, default: 0] += 1 }
        var overlap = 0
        for w in p {
            if let n = counts[w], n > 0 { overlap += 1; counts[w] = n - 1 }
        }
        let precision = Double(overlap) / Double(p.count), recall = Double(overlap) / Double(r.count)
        let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
        return WordScore(precision: precision, recall: recall, f1: f1)
    }
}
