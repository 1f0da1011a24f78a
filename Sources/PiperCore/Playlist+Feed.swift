import Foundation

/// Reads the few things Piper needs from an RSS 2.0 or Atom feed: its title, and each item's
/// enclosure URL and title, in document order. A small scanner over the markup (not a general
/// XML parser: the cores stay Foundation-only on every platform): elements are matched by
/// local name, CDATA and the XML entities are decoded.
enum FeedScanner {
    static func parse(_ text: String, base: URL) -> Playlist {
        var entries: [Playlist.Entry] = []
        var feedTitle: String?
        let items = blocks(of: ["item", "entry"], in: text)
        let head = items.first.map { String(text[..<$0.lowerBound]) } ?? text
        feedTitle = firstText(of: "title", in: head)
        for range in items {
            let item = String(text[range])
            let title = firstText(of: "title", in: item)
            var media: String?
            var page = firstText(of: "link", in: item)
            for tag in tags(in: item) {
                if tag.name == "link", page == nil, let href = tag.attributes["href"], (tag.attributes["rel"] ?? "alternate") == "alternate" {
                    page = href
                }
                if tag.name == "enclosure", let url = tag.attributes["url"] { media = url; break }
                if tag.name == "link", tag.attributes["rel"] == "enclosure", let href = tag.attributes["href"] { media = href; break }
                if tag.name == "content", let url = tag.attributes["url"], (tag.attributes["medium"] == "audio" || tag.attributes["medium"] == "video") {
                    media = media ?? url
                }
            }
            if let media, let url = Playlist.resolve(decode(media), base: base) {
                let published = (firstText(of: "pubdate", in: item) ?? firstText(of: "published", in: item)
                                 ?? firstText(of: "updated", in: item)).flatMap(FeedDate.parse)
                entries.append(Playlist.Entry(url: url, title: title, page: page.flatMap { Playlist.resolve(decode($0), base: base) },
                                              guid: firstText(of: "guid", in: item) ?? firstText(of: "id", in: item),
                                              published: published))
            }
        }
        var playlist = Playlist(kind: .feed, title: feedTitle, entries: entries)
        playlist.checkInterval = checkInterval(head)
        playlist.newFeedURL = firstText(of: "new-feed-url", in: head).flatMap { Playlist.resolve($0, base: base) }
        return playlist
    }

    /// The feed's own word on how often to look: `<ttl>` in minutes, else `sy:updatePeriod`
    /// (hourly, daily, weekly, monthly, yearly) divided by `sy:updateFrequency`.
    static func checkInterval(_ head: String) -> TimeInterval? {
        if let ttl = firstText(of: "ttl", in: head).flatMap({ Int($0) }), ttl > 0 { return TimeInterval(ttl) * 60 }
        let periods: [String: TimeInterval] = ["hourly": 3600, "daily": 86_400, "weekly": 604_800, "monthly": 2_592_000, "yearly": 31_536_000]
        guard let period = firstText(of: "updateperiod", in: head).flatMap({ periods[$0.lowercased()] }) else { return nil }
        let frequency = firstText(of: "updatefrequency", in: head).flatMap { Int($0) }.map { max($0, 1) } ?? 1
        return period / TimeInterval(frequency)
    }

    /// The feeds a page names for itself (`<link rel="alternate" type="application/rss+xml">`
    /// or Atom), resolved against the page, in document order.
    static func feedLinks(in html: String, base: URL) -> [URL] {
        let types: Set<String> = ["application/rss+xml", "application/atom+xml"]
        return tags(in: html).compactMap { tag in
            guard tag.name == "link", let href = tag.attributes["href"], let type = tag.attributes["type"]?.lowercased(),
                  types.contains(type), (tag.attributes["rel"] ?? "").lowercased().split(separator: " ").contains("alternate") else { return nil }
            return Playlist.resolve(href, base: base)
        }
    }

    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    /// The ranges of each `<name ...>...</name>` block for any of `names` (local names, any prefix).
    static func blocks(of names: Set<String>, in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var index = text.startIndex
        while let open = text.range(of: "<", range: index..<text.endIndex) {
            let nameEnd = text[open.upperBound...].firstIndex { $0 == " " || $0 == ">" || $0 == "/" || $0.isNewline || $0 == "\t" } ?? text.endIndex
            let name = localName(String(text[open.upperBound..<nameEnd]))
            if names.contains(name), let close = text.range(of: "</", range: nameEnd..<text.endIndex).flatMap({ first in
                closing(of: name, in: text, from: first.lowerBound)
            }) {
                ranges.append(open.lowerBound..<close.upperBound)
                index = close.upperBound
            } else {
                index = open.upperBound
            }
        }
        return ranges
    }

    static func closing(of name: String, in text: String, from start: String.Index) -> Range<String.Index>? {
        var index = start
        while let close = text.range(of: "</", range: index..<text.endIndex) {
            guard let end = text[close.upperBound...].firstIndex(of: ">") else { return nil }
            if localName(String(text[close.upperBound..<end]).trimmingCharacters(in: .whitespaces)) == name {
                return close.lowerBound..<text.index(after: end)
            }
            index = close.upperBound
        }
        return nil
    }

    /// Every start or empty tag in `text`, with its attributes.
    static func tags(in text: String) -> [Tag] {
        var found: [Tag] = []
        var index = text.startIndex
        while let open = text.range(of: "<", range: index..<text.endIndex) {
            guard let end = text[open.upperBound...].firstIndex(of: ">") else { break }
            let inside = text[open.upperBound..<end]
            index = text.index(after: end)
            guard let first = inside.first, first.isLetter else { continue }
            let nameEnd = inside.firstIndex { $0.isWhitespace || $0 == "/" } ?? inside.endIndex
            found.append(Tag(name: localName(String(inside[..<nameEnd])), attributes: attributes(String(inside[nameEnd...]))))
        }
        return found
    }

    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
            var after = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let closeQuote = after.firstIndex(of: quote) else { break }
            result[localName(name.lowercased())] = decode(String(after[..<closeQuote]))
            rest = after[after.index(after: closeQuote)...]
        }
        return result
    }

    /// The text of the first `<name>` element in `text` (CDATA unwrapped, entities decoded).
    static func firstText(of name: String, in text: String) -> String? {
        guard let block = blocks(of: [name], in: text).first else { return nil }
        let inner = text[block]
        guard let start = inner.firstIndex(of: ">"), let end = inner.range(of: "</", options: .backwards)?.lowerBound, start < end else { return nil }
        var value = String(inner[inner.index(after: start)..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
        if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") { value = String(value.dropFirst(9).dropLast(3)) } else { value = decode(value) }
        return value.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
    }

    static func localName(_ name: String) -> String {
        String(name.split(separator: ":").last ?? Substring(name)).lowercased()
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
