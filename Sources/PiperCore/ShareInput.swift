import Foundation

/// One thing a share carries that Piper acts on.
public enum ShareTarget: Sendable, Equatable {
    /// An http(s) link.
    case link(URL)
    /// A local file (an absolute path or a `file://` URL), for the media route.
    case file(URL)

    /// The link or path as the user gave it (for outcome lines and `--json`'s `source`).
    public var text: String {
        switch self {
        case .link(let url): return url.absoluteString
        case .file(let url): return url.path
        }
    }

    var key: String {
        switch self {
        case .link(let url): return "link:" + url.absoluteString
        case .file(let url): return "file:" + url.standardizedFileURL.path
        }
    }
}

/// The share input: several items (URLs, text holding a URL, file paths), as a share sheet
/// or a command line hands them over.
public struct ShareInput: Sendable, Equatable {
    /// The shared items: URLs, text, file paths.
    public var items: [String]

    /// Input made of `items`.
    public init(_ items: [String]) { self.items = items }

    /// The first http(s) URL found in any item, in order; else the first local file; else nil.
    public var target: ShareTarget? {
        for item in items {
            if let url = Self.firstWebURL(in: item) { return .link(url) }
        }
        for item in items {
            if let file = Self.fileURL(item) { return .file(file) }
        }
        return nil
    }

    /// Every thing to share, in order: each http(s) URL in each item (text may hold several),
    /// and each item that is a local file. The same URL or file twice counts once.
    public var targets: [ShareTarget] {
        var seen = Set<String>()
        var found: [ShareTarget] = []
        for item in items {
            let urls = Self.webURLs(in: item)
            let targets = urls.isEmpty ? Self.fileURL(item).map { [ShareTarget.file($0)] } ?? [] : urls.map(ShareTarget.link)
            for target in targets where seen.insert(target.key).inserted { found.append(target) }
        }
        return found
    }

    /// Every `http://` or `https://` URL inside `text`, in order.
    public static func webURLs(in text: String) -> [URL] {
        var urls: [URL] = []
        var rest = Substring(text)
        while let url = firstWebURL(in: String(rest)) {
            urls.append(url)
            // Continue after this URL's text (found case-insensitively, as firstWebURL does).
            guard let range = rest.range(of: url.absoluteString, options: [.caseInsensitive]) ?? rest.range(of: "://") else { break }
            rest = rest[range.upperBound...]
        }
        return urls
    }

    /// A local file item: an absolute path or a `file://` URL.
    static func fileURL(_ item: String) -> URL? {
        let text = item.trimmingWhitespaceAndNewlines()
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        if text.lowercased().hasPrefix("file://"), let url = URL(string: text), url.isFileURL, !url.path.isEmpty {
            return url
        }
        return nil
    }

    /// The first `http://` or `https://` URL inside `text` (a bare URL or a sentence holding one).
    public static func firstWebURL(in text: String) -> URL? {
        let lower = text.lowercased()
        var searchStart = lower.startIndex
        while searchStart < lower.endIndex {
            let http = lower.range(of: "http://", range: searchStart..<lower.endIndex)
            let https = lower.range(of: "https://", range: searchStart..<lower.endIndex)
            guard let hit = [http, https].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
            let start = hit.lowerBound
            let end = lower[start...].firstIndex(where: Self.endsURL) ?? lower.endIndex
            // The lowercased string has the same indices only for ASCII; map through offsets to be safe.
            let offset = lower.distance(from: lower.startIndex, to: start)
            let length = lower.distance(from: start, to: end)
            let originalStart = text.index(text.startIndex, offsetBy: offset)
            let candidate = Self.trimTrailingPunctuation(String(text[originalStart..<text.index(originalStart, offsetBy: length)]))
            if let url = WebURL.http(candidate) { return url }
            searchStart = hit.upperBound
        }
        return nil
    }

    private static func endsURL(_ c: Character) -> Bool {
        c.isWhitespace || c == "<" || c == ">" || c == "\"" || c == "'" || c == "`"
    }

    /// Drops sentence punctuation that follows a URL in text ("see https://a.b/c." → ".../c"),
    /// keeping a closing bracket when the URL opened one.
    private static func trimTrailingPunctuation(_ s: String) -> String {
        var s = s
        while let last = s.last {
            if ".,;:!?".contains(last) { s.removeLast(); continue }
            if last == ")" && s.filter({ $0 == "(" }).count < s.filter({ $0 == ")" }).count { s.removeLast(); continue }
            if last == "]" && s.filter({ $0 == "[" }).count < s.filter({ $0 == "]" }).count { s.removeLast(); continue }
            break
        }
        return s
    }
}
