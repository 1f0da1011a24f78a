// ArticlePipeline: the one way a page's bytes become an article, used by `piper share` (through
// PiperNet's ReadabilityExtractor), `piper serve`'s shares, `piper extract` and the
// conformance tests.
//   decode + parse  `parseOptions`: scripting off, the transport charset, the host's TLD hint
//   extract         `Extraction.extract` in a mode (piper or readability)
//   policy          `minimumTextLength`: fewer characters of article text is not an article
// Loading (HTTP, Chromium, cookies, X links) happens before, in ShareFlow's loaders.
import Foundation
import HTML
import Readability

/// Bytes (with the transport charset and the page URL) → parsed document → article → policy.
/// A value holding the run's settings; each call works on a fresh document.
public struct ArticlePipeline: Sendable {
    /// Readability returns its best attempt even for a page with one line of text (a login
    /// wall, an error page); fewer characters of article text than this is not an article.
    /// `piper share`, `piper serve`'s shares and `piper extract` all apply it.
    public static let defaultMinimumTextLength = 140

    /// How the article is found.
    public var mode: ExtractionMode
    /// Readability's settings (`classesToPreserve`, limits).
    public var options: ReadabilityOptions
    /// Article text shorter than this (in characters, whitespace trimmed) is refused; 0 refuses
    /// nothing (the conformance tests, which check Readability's own output).
    public var minimumTextLength: Int
    /// The piper mode's thresholds: `Tuning.standard`, or a development run's overrides
    /// (`piper extract --tuning FILE`, the extraction benchmark's variants).
    public var tuning: Tuning

    /// A pipeline in `mode` (default piper) with the default minimum length.
    public init(mode: ExtractionMode = .piper, options: ReadabilityOptions = .init(),
                minimumTextLength: Int = ArticlePipeline.defaultMinimumTextLength, tuning: Tuning = .standard) {
        self.mode = mode
        self.options = options
        self.minimumTextLength = minimumTextLength
        self.tuning = tuning
    }

    /// The one set of parse options for article pages. Scripting is off, as in Readability's
    /// reference suite (JSDOM): `<noscript>` then holds markup, so Readability can unwrap the
    /// images lazy-loading pages put there. No transport charset (or Chromium's "utf-8" for the
    /// string it returns) leaves the parser to sniff, with the page's top-level domain as a
    /// hint for detection.
    public static func parseOptions(transportEncoding: String? = nil, url: String? = nil) -> ParseOptions {
        let host = url.flatMap { URL(string: $0)?.host }
        return ParseOptions(scripting: false, transportEncoding: transportEncoding,
                            topLevelDomain: ParseOptions.topLevelDomain(ofHost: host))
    }

    /// Decodes and parses a page's bytes with `parseOptions`.
    public static func parse(_ bytes: [UInt8], transportEncoding: String? = nil, url: String? = nil) -> Document {
        Document.parse(bytes: bytes, options: parseOptions(transportEncoding: transportEncoding, url: url))
    }

    /// Readability's `isProbablyReaderable` on the page as parsed by the pipeline (before any
    /// extraction changes it).
    public static func isReaderable(_ bytes: [UInt8], transportEncoding: String? = nil, url: String? = nil) -> Bool {
        isProbablyReaderable(parse(bytes, transportEncoding: transportEncoding, url: url))
    }

    /// The whole pipeline: parse `bytes`, extract, apply the policy.
    public func run(_ bytes: [UInt8], transportEncoding: String? = nil, url: String? = nil) throws(ArticleRejection) -> Article {
        try extract(from: Self.parse(bytes, transportEncoding: transportEncoding, url: url), url: url)
    }

    /// The stages after parsing, for a caller that looks at the document first (`piper extract
    /// --meta` reports its encoding). Changes `document`, as Readability does.
    public func extract(from document: Document, url: String?) throws(ArticleRejection) -> Article {
        let found: Article?
        do {
            found = try Extraction.extract(document, url: url, mode: mode, options: options, tuning: tuning)
        } catch {
            throw .engineFailed("\(error)")
        }
        guard let article = found else { throw .noContent }
        if let short = Self.shortfall(of: article, minimum: minimumTextLength) { throw short }
        return article
    }

    /// `.tooShort` when `article`'s trimmed text has fewer than `minimum` characters, else nil
    /// (also for a `minimum` of 0). `piper extract --mode readability` runs with no minimum, as
    /// Readability.js returns short articles, and asks this only to note what a share would refuse.
    public static func shortfall(of article: Article, minimum: Int = defaultMinimumTextLength) -> ArticleRejection? {
        guard minimum > 0 else { return nil }
        let length = trimmedLength(article.textContent, atMost: minimum)
        return length < minimum ? .tooShort(length: length, minimum: minimum) : nil
    }
}

/// Why a page is not an article.
public enum ArticleRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// Readability found no candidate at all.
    case noContent
    /// The article text is shorter than the pipeline's minimum.
    case tooShort(length: Int, minimum: Int)
    /// The engine refused the document (too many elements, nesting too deep); its reason.
    case engineFailed(String)

    /// The reason, as a clause: "Readability found no readable content".
    public var description: String {
        switch self {
        case .noContent: return "Readability found no readable content"
        case .tooShort(let length, let minimum):
            return "only \(length) characters of article text (an article has at least \(minimum))"
        case .engineFailed(let why): return why
        }
    }
}

extension ArticlePipeline {
    /// `text.trimmingCharacters(in: .whitespacesAndNewlines).count`, with counting stopped at
    /// `limit`, and without Foundation's `NSString` bridge (and its `CharacterSet` setup): the
    /// characters between the first and the last scalar that is neither tab, a space separator
    /// (Zs), U+000A–U+000D, U+0085, U+200B, U+2028 nor U+2029 (Foundation's set on Linux). The
    /// trim is a range of the text (no copy), and an article's Characters are not all counted to
    /// learn that there are enough of them.
    static func trimmedLength(_ text: String, atMost limit: Int) -> Int {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0x85, 0x200B, 0x2028, 0x2029: return true
            case 0..<0x80: return false
            default: return scalar.properties.generalCategory == .spaceSeparator
            }
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        var count = 0
        for _ in Substring(scalars[start..<end]) {
            count += 1
            if count >= limit { break }
        }
        return count
    }
}
