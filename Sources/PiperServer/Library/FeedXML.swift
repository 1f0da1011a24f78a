import Foundation
import MediaImport

/// The private podcast feed as RSS 2.0 with the iTunes, Podcasting 2.0 and Podlove Simple
/// Chapters namespaces: one `<item>` per library item, each with its enclosure (a capability URL
/// under the feed's key), a `guid` from its SHA-256, `pubDate` from when it was added,
/// `itunes:duration`, its cover as `itunes:image`, and its chapters twice: `podcast:chapters`
/// JSON and inline `psc:chapters` (what gpodder's podcastparser and many older apps read).
///
/// A `serial` feed (a folder: a book, a playlist) lists its items in play order with
/// `itunes:episode` numbers (and `itunes:season` for a book of several discs), and its
/// `pubDate`s strictly increase in that order (an item's own date where it already does), so
/// apps that sort by date play it in order too.
struct FeedXML {
    /// `https://host` (no trailing slash) that every URL in the feed starts with.
    let base: String
    let secret: String
    /// Whether an item has a cover (read on demand, kept by the shelf).
    let hasCover: (LibraryItem) -> Bool
    /// An item's disc and track from its tags (read on demand, kept by the shelf).
    var position: (LibraryItem) -> TrackPosition = { _ in TrackPosition() }

    func render(title: String, description: String, items: [LibraryItem], serial: Bool) -> String {
        let key = "key=\(secret)"
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:psc="http://podlove.org/simple-chapters" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
            <title>\(x(title))</title>
            <link>\(x(base))/library</link>
            <description>\(x(description))</description>
            <generator>Piper</generator>
            <itunes:author>Piper</itunes:author>
            <itunes:explicit>false</itunes:explicit>
            <itunes:block>Yes</itunes:block>
            <itunes:type>\(serial ? "serial" : "episodic")</itunes:type>
            <itunes:image href="\(x(channelImage(items, key: key)))"/>

            """
        let dates = serial ? Self.increasingDates(items) : items.map { Self.date($0.addedAt) }
        let discs = serial ? items.map { position($0).disc ?? 1 } : []
        let severalDiscs = Set(discs).count > 1
        for (index, item) in items.enumerated() {
            let id = LibraryShelf.id(of: item)
            let format = MediaFormat(rawValue: item.format)
            let ext = URL(fileURLWithPath: item.path).pathExtension.lowercased()
            let enclosure = "\(base)/media/\(id)\(ext.isEmpty ? "" : "." + ext)?\(key)"
            xml += "<item>\n<title>\(x(item.title))</title>\n"
            if let author = item.author { xml += "<itunes:author>\(x(author))</itunes:author>\n" }
            let about = [item.album, item.sourceURL.map { "From \($0)" }].compactMap { $0 }.joined(separator: ". ")
            if !about.isEmpty { xml += "<description>\(x(about))</description>\n" }
            if let source = item.sourceURL, source.hasPrefix("http") { xml += "<link>\(x(source))</link>\n" }
            xml += "<enclosure url=\"\(x(enclosure))\" length=\"\(item.size)\" type=\"\(x(format?.mimeType ?? "application/octet-stream"))\"/>\n"
            xml += "<guid isPermaLink=\"false\">\(item.sha256)</guid>\n"
            if let date = dates[index] { xml += "<pubDate>\(Self.rfc822(date))</pubDate>\n" }
            if serial {
                xml += "<itunes:episode>\(index + 1)</itunes:episode>\n<itunes:episodeType>full</itunes:episodeType>\n"
                if severalDiscs { xml += "<itunes:season>\(discs[index])</itunes:season>\n" }
            }
            if let duration = item.duration { xml += "<itunes:duration>\(Int(duration.rounded()))</itunes:duration>\n" }
            if hasCover(item) { xml += "<itunes:image href=\"\(x("\(base)/media/\(id)/cover?\(key)"))\"/>\n" }
            if !item.chapters.isEmpty {
                xml += "<podcast:chapters url=\"\(x("\(base)/feed/\(secret)/chapters/\(id).json"))\" type=\"application/json+chapters\"/>\n"
                xml += "<psc:chapters version=\"1.2\">\n"
                for chapter in item.chapters {
                    xml += "<psc:chapter start=\"\(Self.normalPlayTime(chapter.start))\" title=\"\(x(chapter.title))\"/>\n"
                }
                xml += "</psc:chapters>\n"
            }
            xml += "</item>\n"
        }
        return xml + "</channel>\n</rss>\n"
    }

    /// The first item's cover, else Piper's icon.
    private func channelImage(_ items: [LibraryItem], key: String) -> String {
        if let covered = items.first(where: hasCover) { return "\(base)/media/\(LibraryShelf.id(of: covered))/cover?\(key)" }
        return "\(base)/icon-512.png"
    }

    /// Each item's date when the dates already increase in play order, else a minute after the
    /// one before: strictly increasing, whole seconds apart (RFC 822 has no finer unit).
    static func increasingDates(_ items: [LibraryItem]) -> [Date?] {
        var previous: Date?
        return items.map { item in
            var date = date(item.addedAt) ?? previous?.addingTimeInterval(60) ?? Date(timeIntervalSince1970: 0)
            date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            if let previous, date <= previous { date = previous.addingTimeInterval(60) }
            previous = date
            return date
        }
    }

    /// Podlove's normal play time, `HH:MM:SS.mmm`.
    static func normalPlayTime(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }

    /// Podcasting 2.0's JSON chapters format.
    static func chaptersJSON(_ item: LibraryItem) -> [UInt8] {
        let chapters: [[String: Any]] = item.chapters.map { ["startTime": $0.start, "title": $0.title] }
        let object: [String: Any] = ["version": "1.2.0", "chapters": chapters]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    /// Text for XML: escaped, and without the control characters XML 1.0 forbids.
    func x(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r"
        }.filter { !(0xFFFE...0xFFFF).contains($0.value) }))
        return HTMLEscape.escape(cleaned)
    }

    static func date(_ iso: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: iso) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: iso)
    }

    /// RFC 822 dates, as RSS wants (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func rfc822(_ date: Date) -> String { HTTPDate.string(date) }
}
