import Foundation

/// The lines around the article: who wrote it, where it came from, how long the copy lives.
extension ReaderPage {
    /// `<header>`: the title, then "byline · site · date", then "Original: <link>"; marked
    /// `instapaper_ignore`, as the footer is: the page's own lines, not the article's.
    static func header(_ article: SavedArticle) -> String {
        let metadata = article.metadata
        var html = "<header class=\"saved instapaper_ignore\">\n<h1>\(HTMLEscape.escape(article.title))</h1>\n"
        var parts: [String] = []
        if let byline = metadata.byline { parts.append("<span class=\"byline\">\(HTMLEscape.escape(byline))</span>") }
        if let site = metadata.siteName { parts.append("<span class=\"site\">\(HTMLEscape.escape(site))</span>") }
        if let published = metadata.publishedTime { parts.append(time(published)) }
        if !parts.isEmpty { html += "<p class=\"meta\">" + parts.joined(separator: " · ") + "</p>\n" }
        if let source = metadata.sourceURL {
            // A link away from the page: navigation, which extractors leave out of the text
            // (trafilatura read it as the article's first line on a short article).
            html += "<nav><p class=\"original\">Original: " + link(source) + "</p></nav>\n"
        }
        return html + "</header>\n"
    }

    /// "Saved by Piper · expires at 14:32 UTC" (with the day when the copy lives a day or more).
    static func footer(_ article: SavedArticle) -> String {
        let longLived = article.expiresAt.timeIntervalSince(article.createdAt) >= 86_400
        let when = (longLived ? UTCTime.day(article.expiresAt) + " " : "") + UTCTime.clock(article.expiresAt)
        return "<footer class=\"saved instapaper_ignore\"><p>Saved by Piper · expires at \(when)</p></footer>\n"
    }

    /// A link to `url` (already validated http(s)) that shows host and path, shortened.
    static func link(_ url: String) -> String {
        "<a href=\"\(HTMLEscape.escape(url))\" rel=\"noreferrer\">\(HTMLEscape.escape(displayed(url)))</a>"
    }

    /// `host/path` without the scheme or `www.`, at most 80 characters.
    static func displayed(_ url: String) -> String { URLDisplay.shortened(url) }

    /// The published date: `<time>` with the day when the value starts with one (ISO 8601),
    /// else the text as given.
    static func time(_ published: String) -> String {
        let bytes = Array(published.utf8.prefix(10))
        let isDay = bytes.count == 10 && bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (byte >= 0x30 && byte <= 0x39)
        }
        guard isDay else { return "<span class=\"published\">\(HTMLEscape.escape(published))</span>" }
        let day = String(decoding: bytes, as: UTF8.self)
        return "<time datetime=\"\(HTMLEscape.escape(published))\">\(day)</time>"
    }
}
