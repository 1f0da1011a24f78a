import Foundation

/// OPML 2.0 subscription lists, the form podcast apps export and import their follows in: one
/// `<outline type="rss" xmlUrl="…">` per feed, possibly inside folders of outlines.
public enum OPML {
    /// One subscription.
    public struct Feed: Sendable, Equatable {
        public var title: String
        public var url: URL

        public init(title: String, url: URL) {
            self.title = title
            self.url = url
        }
    }

    /// Every feed the list names (nested outlines too), in document order, each once.
    public static func feeds(in text: String) -> [Feed] {
        var seen = Set<URL>()
        return FeedScanner.tags(in: text).compactMap { tag in
            guard tag.name == "outline", let address = tag.attributes["xmlurl"],
                  let url = URL(string: address.trimmingCharacters(in: .whitespaces)), WebURL.isWeb(url),
                  seen.insert(url).inserted else { return nil }
            let title = tag.attributes["title"] ?? tag.attributes["text"] ?? url.host ?? address
            return Feed(title: title, url: url)
        }
    }

    /// An OPML 2.0 document listing `feeds`, made at `date`.
    public static func document(_ feeds: [Feed], title: String = "Piper follows", date: Date = Date()) -> String {
        let outlines = feeds.map { feed in
            let name = escape(feed.title)
            return "    <outline type=\"rss\" text=\"\(name)\" title=\"\(name)\" xmlUrl=\"\(escape(feed.url.absoluteString))\"/>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>\(escape(title))</title>
                <dateCreated>\(rfc822(date))</dateCreated>
              </head>
              <body>
            \(outlines.joined(separator: "\n"))
              </body>
            </opml>

            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `Sun, 06 Dec 2026 07:00:00 GMT`, as OPML's dates are written.
    static func rfc822(_ date: Date) -> String {
        let (year, month, day, hour, minute, second) = CivilTime.parts(Int(date.timeIntervalSince1970))
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((Int(date.timeIntervalSince1970) / 86_400) % 7 + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let clock = String(format: "%02d:%02d:%02d", hour, minute, second)
        return "\(weekday), \(String(format: "%02d", day)) \(months[month - 1]) \(year) \(clock) GMT"
    }
}
