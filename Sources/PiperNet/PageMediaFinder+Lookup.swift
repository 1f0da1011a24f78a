import Foundation
import HTML
import PiperCore

/// The lookups a share makes for a page whose episode signal names its file elsewhere: the
/// podcast host's player page, then the show's feed; both through the finder's `fetch` (the
/// server's guarded loader).
extension PageMediaFinder {
    public func followPlayers(_ players: [URL], for parsed: ParsedPage) -> DiscoveredMedia? {
        guard let fetch else { return nil }
        for (player, data) in zip(players, Self.fetchAll(players, with: fetch)) {
            guard let data, let file = PodcastPlayers.file(inPlayerPage: data, at: player, finder: self) else { continue }
            let document = DocumentTree.reading(parsed)
            let title = meta(document, "og:title") ?? document.title.trimmingWhitespaceAndNewlines().nonEmptyOrNil
            return DiscoveredMedia(url: file, signal: "player", title: title, author: meta(document, "author") ?? meta(document, "article:author"))
        }
        return nil
    }

    public func searchFeeds(_ feedURLs: [URL], for parsed: ParsedPage) -> DiscoveredMedia? {
        guard let fetch else { return nil }
        let page = parsed.page
        let here = [page.finalURL, page.requestedURL].map(Self.comparable)
        for (feedURL, data) in zip(feedURLs, Self.fetchAll(feedURLs, with: fetch)) {
            guard let data, let feed = try? Playlist.parse(data, kind: .feed, base: feedURL) else { continue }
            if let item = feed.entries.first(where: { $0.page.map { here.contains(Self.comparable($0)) } == true }) {
                let document = DocumentTree.reading(parsed)
                let title = item.title ?? meta(document, "og:title") ?? document.title.trimmingWhitespaceAndNewlines().nonEmptyOrNil
                let author = meta(document, "author") ?? meta(document, "article:author")
                return DiscoveredMedia(url: item.url, signal: "feed", title: title, author: author)
            }
        }
        return nil
    }

    /// Every URL fetched at once, each on its own thread (a blog links a feed per category:
    /// three round trips one after the other tripled the wait), the answers in `urls`' order.
    /// The calling thread fetches the first one itself.
    static func fetchAll(_ urls: [URL], with fetch: @escaping @Sendable (URL) -> Data?) -> [Data?] {
        guard urls.count > 1 else { return urls.map(fetch) }
        let answers = FetchAnswers(count: urls.count)
        let group = DispatchGroup()
        for index in urls.indices.dropFirst() {
            let url = urls[index]
            // A queue of its own gets a thread of its own: the global queues are as wide as the
            // cores, and the caller's is one of them.
            DispatchQueue(label: "piper.feed-fetch").async(group: group) { answers.set(index, fetch(url)) }
        }
        answers.set(0, fetch(urls[0]))
        group.wait()
        return answers.values
    }

    /// A page URL as feeds and pages spell it alike: no fragment, no trailing slash, lower-case
    /// scheme and host (the path keeps its case).
    static func comparable(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        var text = components.string ?? url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

/// The answers of `PageMediaFinder.fetchAll`, written by its threads under a lock.
private final class FetchAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Data?]

    init(count: Int) { answers = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ data: Data?) {
        lock.lock()
        answers[index] = data
        lock.unlock()
    }

    var values: [Data?] {
        lock.lock()
        defer { lock.unlock() }
        return answers
    }
}
