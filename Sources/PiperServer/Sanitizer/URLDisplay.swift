/// A URL as a reader sees it in a label: `host/path` without the scheme or `www.`, at most 80
/// characters. Used by the reader page's header and the sanitizer's embed links.
enum URLDisplay {
    static func shortened(_ url: String) -> String {
        var text = Substring(url)
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        if text.lowercased().hasPrefix("www.") { text = text.dropFirst(4) }
        if text.hasSuffix("/") && text.filter({ $0 == "/" }).count == 1 { text = text.dropLast() }
        return text.count > 80 ? String(text.prefix(79)) + "…" : String(text)
    }
}
