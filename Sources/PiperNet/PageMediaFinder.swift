import Foundation
import HTML
import PiperCore

/// Finds the media an HTML page names, in order of trust: Open Graph (`og:audio`, `og:video`),
/// `<audio>`/`<video>` and their `<source>`s, JSON-LD (`AudioObject`, `VideoObject`,
/// `PodcastEpisode`… with a `contentUrl`), the page's podcast feed (`<link rel="alternate">` to
/// RSS or Atom) whose item links to this page, then plain links to a media file. Images and
/// embedded players are not media; a muted looping autoplay video is a preview clip, skipped.
public struct PageMediaFinder: MediaFinder {
    /// Fetches a feed the page links to; nil: feeds are not followed.
    let fetch: (@Sendable (URL) -> Data?)?
    /// The parse to share with the extraction; nil: the page is parsed here (as the article
    /// pipeline parses it, either way).
    let document: PageDocument?
    /// Work for the calling thread while the page's feeds are fetched (`piper share`: the
    /// extraction, ahead of time, which may take the shared parse: the search is done reading
    /// it by then); nil: it fetches the first feed itself.
    let whileFetching: (@Sendable (LoadedPage) -> Void)?

    public init(fetch: (@Sendable (URL) -> Data?)? = nil, document: PageDocument? = nil,
                whileFetching: (@Sendable (LoadedPage) -> Void)? = nil) {
        self.fetch = fetch
        self.document = document
        self.whileFetching = whileFetching
    }

    /// Fetches a feed over plain HTTP with the article loader (and its limits).
    public static let httpFetch: @Sendable (URL) -> Data? = { url in try? HTTPPageLoader().load(url, cookies: []).body }

    public func findMedia(in page: LoadedPage) -> DiscoveredMedia? {
        guard page.contentType.map({ ContentType.mediaType(of: $0) == "text/html" || ContentType.mediaType(of: $0) == "application/xhtml+xml" }) ?? true else {
            return nil
        }
        let document = self.document?.read(page) ?? PageDocument.parse(page)
        let base = document.node.querySelector("base[href]")?.getAttribute("href")
            .flatMap { URL(string: $0, relativeTo: page.finalURL)?.absoluteURL } ?? page.finalURL
        let title = meta(document, "og:title") ?? document.title.trimmingWhitespaceAndNewlines().nonEmptyOrNil
        let author = meta(document, "author") ?? meta(document, "article:author")
        func found(_ raw: String?, _ signal: String, requireMediaExtension: Bool = false) -> DiscoveredMedia? {
            guard let raw, let url = URL(string: raw.trimmingWhitespaceAndNewlines(), relativeTo: base)?.absoluteURL,
                  WebURL.isWeb(url), !ShareRouting.isImage(url) else { return nil }
            if requireMediaExtension, !MediaLinks.hasMediaExtension(url) { return nil }
            return DiscoveredMedia(url: url, signal: signal, title: title, author: author)
        }
        for property in ["og:audio", "og:audio:secure_url", "og:audio:url", "og:video", "og:video:secure_url", "og:video:url"] {
            let kind = property.hasPrefix("og:audio") ? "og:audio:type" : "og:video:type"
            if let type = meta(document, kind), !(type.hasPrefix("audio/") || type.hasPrefix("video/")) { continue }   // an embedded player
            if let media = found(meta(document, property), property, requireMediaExtension: meta(document, kind) == nil) { return media }
        }
        for element in document.node.querySelectorAll("audio, video") where !Self.isPreviewClip(element) {
            let name = element.localName
            if let media = found(element.getAttribute("src"), name) { return media }
            for source in element.querySelectorAll("source") {
                if let type = source.getAttribute("type"), !(type.hasPrefix("audio/") || type.hasPrefix("video/")) { continue }
                if let media = found(source.getAttribute("src"), "\(name) source") { return media }
            }
        }
        for (url, signal, strict) in JSONLDMedia.contentURLs(in: document) {
            if let media = found(url, signal, requireMediaExtension: !strict) { return media }
        }
        // The plain links are read before the feeds are fetched (they still rank after them):
        // while the feeds load, `whileFetching` may hand the tree to the extraction.
        let linked = document.node.querySelectorAll("a[href]")
            .sorted(by: { $0.hasAttribute("download") && !$1.hasAttribute("download") })
            .lazy.compactMap { found($0.getAttribute("href"), "link", requireMediaExtension: true) }.first
        if let media = fromFeed(document, base: base, page: page, title: title, author: author) { return media }
        return linked
    }

    /// The enclosure of the item, in a feed the page links to, whose own link is this page.
    /// `document` is not read once the fetches start.
    func fromFeed(_ document: Document, base: URL, page: LoadedPage, title: String?, author: String?) -> DiscoveredMedia? {
        guard let fetch else { return nil }
        let feeds = document.node.querySelectorAll("link[href]").filter { link in
            let rel = (link.getAttribute("rel") ?? "").lowercased().split(separator: " ")
            let type = (link.getAttribute("type") ?? "").lowercased()
            return rel.contains("alternate") && (type == "application/rss+xml" || type == "application/atom+xml")
        }
        let here = [page.finalURL, page.requestedURL].map(Self.comparable)
        let feedURLs = feeds.prefix(3).compactMap { link -> URL? in
            guard let href = link.getAttribute("href"), let url = URL(string: href, relativeTo: base)?.absoluteURL,
                  WebURL.isWeb(url) else { return nil }
            return url
        }
        let meanwhile = whileFetching.map { work in { work(page) } }
        for (feedURL, data) in zip(feedURLs, Self.fetchAll(feedURLs, with: fetch, meanwhile: meanwhile)) {
            guard let data, let feed = try? Playlist.parse(data, kind: .feed, base: feedURL) else { continue }
            if let item = feed.entries.first(where: { $0.page.map { here.contains(Self.comparable($0)) } == true }) {
                return DiscoveredMedia(url: item.url, signal: "feed", title: item.title ?? title, author: author)
            }
        }
        return nil
    }

    /// Every URL fetched at once, each on its own thread (a blog links a feed per category:
    /// three round trips one after the other tripled the wait), the answers in `urls`' order.
    /// The calling thread fetches the first one itself, or, given `meanwhile`, runs that while
    /// every fetch has a thread of its own.
    static func fetchAll(_ urls: [URL], with fetch: @escaping @Sendable (URL) -> Data?, meanwhile: (() -> Void)? = nil) -> [Data?] {
        guard !urls.isEmpty else { return [] }
        guard urls.count > 1 || meanwhile != nil else { return urls.map(fetch) }
        let answers = FetchAnswers(count: urls.count)
        let group = DispatchGroup()
        for index in urls.indices.dropFirst(meanwhile == nil ? 1 : 0) {
            let url = urls[index]
            // A queue of its own gets a thread of its own: the global queues are as wide as the
            // cores, and the caller's is one of them.
            DispatchQueue(label: "piper.feed-fetch").async(group: group) { answers.set(index, fetch(url)) }
        }
        if let meanwhile { meanwhile() } else { answers.set(0, fetch(urls[0])) }
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

    /// A video that plays by itself, muted and looping, is decoration or a preview.
    static func isPreviewClip(_ element: Node) -> Bool {
        element.localName == "video" && element.hasAttribute("autoplay") && element.hasAttribute("muted") && element.hasAttribute("loop")
    }

    func meta(_ document: Document, _ name: String) -> String? {
        for element in document.node.getElementsByTagName("meta") {
            let key = element.getAttribute("property") ?? element.getAttribute("name")
            if key?.lowercased() == name, let content = element.getAttribute("content")?.trimmingWhitespace(), !content.isEmpty {
                return content
            }
        }
        return nil
    }
}

/// The `contentUrl`s of media objects in a page's JSON-LD blocks.
enum JSONLDMedia {
    static let mediaTypes: Set<String> = ["audioobject", "videoobject", "mediaobject", "podcastepisode", "episode", "audiobook", "musicrecording"]

    /// (url, signal, named as the content): a `contentUrl` names the file itself; a plain `url`
    /// counts only when it ends in a media extension.
    static func contentURLs(in document: Document) -> [(String, String, Bool)] {
        var found: [(String, String, Bool)] = []
        for script in document.node.querySelectorAll("script[type]") where script.getAttribute("type")?.lowercased().hasPrefix("application/ld+json") == true {
            guard let json = try? JSONSerialization.jsonObject(with: Data(script.textContent.utf8)) else { continue }
            walk(json, into: &found)
        }
        return found
    }

    static func walk(_ value: Any, into found: inout [(String, String, Bool)]) {
        if let array = value as? [Any] {
            for item in array { walk(item, into: &found) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        let types = (object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [String]) ?? []
        if types.contains(where: { mediaTypes.contains($0.lowercased()) }) {
            if let url = (object["contentUrl"] ?? object["contentURL"]) as? String {
                found.append((url, "json-ld \(types.first ?? "")", true))
            } else if let url = object["url"] as? String {
                found.append((url, "json-ld \(types.first ?? "")", false))
            }
        }
        for key in ["@graph", "associatedMedia", "audio", "video", "encoding", "mainEntity", "hasPart"] {
            if let nested = object[key] { walk(nested, into: &found) }
        }
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

private extension String {
    var nonEmptyOrNil: String? { isEmpty ? nil : self }
}
