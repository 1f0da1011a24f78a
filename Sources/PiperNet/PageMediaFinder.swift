import Foundation
import HTML
import PiperCore

/// Reads what a page is and which media it names (`RouteEvidence`), from the share's one parse
/// of it, in order of trust: Open Graph (`og:audio`, `og:video`), `<audio>`/`<video>` and their
/// `<source>`s, JSON-LD (`AudioObject`, `VideoObject`, `PodcastEpisode`… with a `contentUrl`),
/// then plain links to a media file; with each file what the page says of it (its length, a
/// preview loop, whether it sits beside the main content, whether its name is the page's). The
/// route itself is `RouteRules`' to decide. Images and embedded players are not media. The
/// page's feeds are fetched only when asked (`searchFeeds`): for a page that declares an
/// episode but names no file.
public struct PageMediaFinder: MediaFinder {
    /// Fetches a feed the page links to; nil: feeds are not followed.
    let fetch: (@Sendable (URL) -> Data?)?

    public init(fetch: (@Sendable (URL) -> Data?)? = nil) {
        self.fetch = fetch
    }

    /// Fetches a feed over plain HTTP with the article loader (and its limits).
    public static let httpFetch: @Sendable (URL) -> Data? = { url in try? HTTPPageLoader().load(url, cookies: []).body }

    /// `og:type` values that declare the page an article, and those that declare a media item.
    static let articleOpenGraphTypes: Set<String> = ["article", "blog", "news", "newsarticle"]
    static let episodeOpenGraphTypes: Set<String> = ["music.song", "video.episode", "video.movie", "video.other", "music.album"]
    /// JSON-LD types that declare an article, and those that declare an episode or a media item,
    /// when they are a top-level entity of the page (not nested inside another).
    static let articleSchemaTypes: Set<String> = [
        "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
        "techarticle", "scholarlyarticle", "socialmediaposting", "liveblogposting", "report",
    ]
    static let episodeSchemaTypes: Set<String> = [
        "podcastepisode", "episode", "radioepisode", "tvepisode", "audiobook", "musicrecording",
    ]
    static let seriesEpisodeSchemaTypes: Set<String> = ["podcastepisode", "episode", "radioepisode", "tvepisode"]
    /// A bare media object declares the page a media item only when nothing but the site's
    /// structure stands beside it: beside a `DefinedTerm` (a dictionary's pronunciation), a
    /// `Product` (a demo) or an article, it is part of that page.
    static let mediaObjectTypes: Set<String> = ["audioobject", "videoobject", "mediaobject"]
    static let structureSchemaTypes: Set<String> = [
        "webpage", "website", "organization", "corporation", "newsmediaorganization", "breadcrumblist", "listitem", "person",
        "imageobject", "searchaction", "sitenavigationelement", "wpheader", "wpfooter", "contactpoint", "postaladdress",
        "collectionpage", "itempage", "aboutpage", "podcastseries", "podcastseason",
    ]

    public func evidence(in parsed: ParsedPage) -> RouteEvidence {
        let page = parsed.page
        guard page.contentType.map({ ContentType.mediaType(of: $0) == "text/html" || ContentType.mediaType(of: $0) == "application/xhtml+xml" }) ?? true else {
            return RouteEvidence()
        }
        let document = DocumentTree.reading(parsed)
        let base = document.node.querySelector("base[href]")?.getAttribute("href")
            .flatMap { URL(string: $0, relativeTo: page.finalURL)?.absoluteURL } ?? page.finalURL
        var evidence = RouteEvidence()
        evidence.title = meta(document, "og:title") ?? document.title.trimmingWhitespaceAndNewlines().nonEmptyOrNil
        evidence.author = meta(document, "author") ?? meta(document, "article:author")
        if let type = meta(document, "og:type")?.lowercased() {
            if Self.articleOpenGraphTypes.contains(type) { evidence.declaresArticle = true }
            if Self.episodeOpenGraphTypes.contains(type) || type.hasPrefix("podcast") { evidence.declaresEpisode = true }
            if type == "video.episode" || type.hasPrefix("podcast") { evidence.declaresSeriesEpisode = true }
        }
        let linkedData = JSONLDMedia.read(document)
        if linkedData.topLevelTypes.contains(where: Self.articleSchemaTypes.contains) { evidence.declaresArticle = true }
        if linkedData.topLevelTypes.contains(where: Self.episodeSchemaTypes.contains) { evidence.declaresEpisode = true }
        if linkedData.topLevelTypes.contains(where: Self.seriesEpisodeSchemaTypes.contains) { evidence.declaresSeriesEpisode = true }
        if linkedData.topLevelTypes.contains(where: Self.mediaObjectTypes.contains),
           linkedData.topLevelTypes.allSatisfy({ Self.mediaObjectTypes.contains($0) || Self.structureSchemaTypes.contains($0) }) {
            evidence.declaresEpisode = true
        }
        let pageTitle = evidence.title

        func candidate(_ raw: String?, _ source: MediaCandidate.Source, _ signal: String, requireMediaExtension: Bool = false,
                       element: Node? = nil, name: String? = nil, duration: Double? = nil) -> MediaCandidate? {
            guard let raw, let url = URL(string: raw.trimmingWhitespaceAndNewlines(), relativeTo: base)?.absoluteURL,
                  WebURL.isWeb(url), !ShareRouting.isImage(url) else { return nil }
            if requireMediaExtension, !MediaLinks.hasMediaExtension(url) { return nil }
            let ownName = name ?? element.flatMap(MediaEvidence.name(of:))
            // A link is named by its text, which often repeats the title ("Listen: …") on an
            // article too: only a player's or a media object's name says it is the page's.
            let named = source != .link && MediaEvidence.sameName(ownName, pageTitle)
            return MediaCandidate(url: url, source: source, signal: signal,
                                  duration: duration ?? element.flatMap(MediaEvidence.duration(of:)),
                                  preview: element.map(MediaEvidence.isPreviewClip) ?? false,
                                  incidental: element.map(MediaEvidence.isIncidental) ?? false
                                      || source == .link && (name ?? "").isEmpty,
                                  namedLikeThePage: named)
        }
        for property in ["og:audio", "og:audio:secure_url", "og:audio:url", "og:video", "og:video:secure_url", "og:video:url"] {
            let audio = property.hasPrefix("og:audio")
            let kind = audio ? "og:audio:type" : "og:video:type"
            if let type = meta(document, kind), !(type.hasPrefix("audio/") || type.hasPrefix("video/")) { continue }   // an embedded player
            let seconds = (audio ? meta(document, "music:duration") : meta(document, "og:video:duration") ?? meta(document, "video:duration"))
                .flatMap { Double($0) }
            if let found = candidate(meta(document, property), audio ? .openGraphAudio : .openGraphVideo, property,
                                     requireMediaExtension: meta(document, kind) == nil, duration: seconds),
               !evidence.candidates.contains(where: { $0.url == found.url }) {
                evidence.candidates.append(found)
            }
        }
        for element in document.node.querySelectorAll("audio, video") {
            let name = element.localName
            let source: MediaCandidate.Source = name == "audio" ? .audioElement : .videoElement
            if let found = candidate(element.getAttribute("src"), source, name, element: element) {
                evidence.candidates.append(found)
                continue
            }
            for child in element.querySelectorAll("source") {
                if let type = child.getAttribute("type"), !(type.hasPrefix("audio/") || type.hasPrefix("video/")) { continue }
                if let found = candidate(child.getAttribute("src"), source, "\(name) source", element: element) {
                    evidence.candidates.append(found)
                    break
                }
            }
        }
        for item in linkedData.media {
            // A `contentUrl` is often a page (a video's own page, an embed, a 3D model): it names
            // a file only with a media extension or an audio/video `encodingFormat`.
            let typed = item.namesTheFile && (item.format.map { $0.hasPrefix("audio/") || $0.hasPrefix("video/") } ?? false)
            if let found = candidate(item.url, .jsonLD, item.signal, requireMediaExtension: !typed,
                                     name: item.name, duration: item.duration) {
                evidence.candidates.append(found)
            }
        }
        let links = document.node.querySelectorAll("a[href]")
            .sorted(by: { $0.hasAttribute("download") && !$1.hasAttribute("download") })
        for link in links {
            if let found = candidate(link.getAttribute("href"), .link, "link", requireMediaExtension: true, element: link,
                                     name: link.textContent.trimmingWhitespaceAndNewlines()) {
                evidence.candidates.append(found)
            }
        }
        // One file named twice (a player and its JSON-LD) has the length either states.
        var durations: [URL: Double] = [:]
        for candidate in evidence.candidates { if let seconds = candidate.duration { durations[candidate.url] = seconds } }
        for index in evidence.candidates.indices where evidence.candidates[index].duration == nil {
            evidence.candidates[index].duration = durations[evidence.candidates[index].url]
        }
        evidence.feeds = feeds(document, base: base)
        return evidence
    }

    /// The page's RSS and Atom feeds (`<link rel=alternate>`), at most three.
    func feeds(_ document: Document, base: URL) -> [URL] {
        let links = document.node.querySelectorAll("link[href]").filter { link in
            let rel = (link.getAttribute("rel") ?? "").lowercased().split(separator: " ")
            let type = (link.getAttribute("type") ?? "").lowercased()
            return rel.contains("alternate") && (type == "application/rss+xml" || type == "application/atom+xml")
        }
        return links.prefix(3).compactMap { link -> URL? in
            guard let href = link.getAttribute("href"), let url = URL(string: href, relativeTo: base)?.absoluteURL,
                  WebURL.isWeb(url) else { return nil }
            return url
        }
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

/// What an element says about the media file it holds or links.
enum MediaEvidence {
    /// A muted, looping video is decoration or a preview (it is started by the page itself,
    /// by `autoplay` or by script), never the thing the page is about.
    static func isPreviewClip(_ element: Node) -> Bool {
        element.localName == "video" && element.hasAttribute("muted") && element.hasAttribute("loop")
    }

    /// Elements, roles and the class-name words (the English vocabulary sites use everywhere)
    /// that mark a box as beside the main content.
    static let besideElements: Set<String> = ["aside", "nav", "footer"]
    static let besideRoles: Set<String> = ["banner", "navigation", "complementary", "contentinfo"]
    static let besideWords: Set<String> = [
        "sidebar", "related", "promo", "promotion", "widget", "advert", "advertisement", "ad", "ads", "sponsor", "sponsored",
        "newsletter", "banner", "footer", "nav", "navigation", "menu", "recommended", "trending", "popular", "teaser",
    ]

    /// In the page's navigation, an aside, a footer, a site header (one outside any `article` or
    /// `main`), or a box whose role, class or id says it is beside the main content.
    static func isIncidental(_ element: Node) -> Bool {
        var node = element.parentElement
        var inSiteHeader = false
        while let current = node, current.localName != "body", current.localName != "html" {
            let name = current.localName
            if besideElements.contains(name) { return true }
            if name == "header" { inSiteHeader = true }
            if name == "article" || name == "main" { inSiteHeader = false }
            if let role = current.getAttribute("role")?.lowercased(), besideRoles.contains(role) { return true }
            let words = [current.getAttribute("class"), current.getAttribute("id")].compactMap { $0 }.joined(separator: " ")
            if !words.isEmpty, words.lowercased().split(whereSeparator: { !$0.isLetter }).contains(where: { besideWords.contains(String($0)) }) {
                return true
            }
            node = current.parentElement
        }
        return inSiteHeader
    }

    /// The element's own name for its media: its `title` or `aria-label`.
    static func name(of element: Node) -> String? {
        (element.getAttribute("title") ?? element.getAttribute("aria-label"))?.trimmingWhitespaceAndNewlines()
    }

    /// The length an element states in seconds (`data-durationhint`, as MediaWiki writes it;
    /// `data-duration`).
    static func duration(of element: Node) -> Double? {
        for attribute in ["data-durationhint", "data-duration"] {
            if let value = element.getAttribute(attribute).flatMap({ Double($0.trimmingWhitespace()) }), value > 0 { return value }
        }
        return nil
    }

    /// Two names for one thing: most of the words of the shorter are in the longer, and they
    /// share at least half of the longer's ("Ep 42: Trains" and "Ep 42: Trains | The Show").
    static func sameName(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        let left = words(a), right = words(b)
        let shorter = min(left.count, right.count), longer = max(left.count, right.count)
        guard shorter >= 2 else { return false }
        let shared = left.intersection(right).count
        return Double(shared) >= 0.8 * Double(shorter) && Double(shared) >= 0.5 * Double(longer)
    }

    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
    }

    /// An ISO 8601 duration (`PT1M2S`, `PT62S`, `P0DT1H`) in seconds.
    static func seconds(iso8601 text: String) -> Double? {
        let upper = text.trimmingWhitespace().uppercased()
        guard upper.hasPrefix("P") else { return Double(upper) }
        var total = 0.0, number = "", inTime = false, any = false
        for character in upper.dropFirst() {
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                continue
            }
            if character == "T" { inTime = true; continue }
            guard let value = Double(number) else { return nil }
            number = ""
            any = true
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("W", false): total += value * 604_800
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil   // years and months have no fixed length
            }
        }
        return any && number.isEmpty ? total : nil
    }
}

/// A page's JSON-LD: the types of its top-level entities (the root, an array's items, a
/// `@graph`'s members), and its media objects with a file.
struct JSONLDMedia {
    struct Item {
        var url: String
        var signal: String
        /// `contentUrl` names the file itself; a plain `url` counts only with a media extension.
        var namesTheFile: Bool
        /// The object's name, or that of the episode it belongs to.
        var name: String?
        var duration: Double?
        /// Its `encodingFormat` (a MIME type), when given.
        var format: String?
    }

    static let mediaTypes: Set<String> = ["audioobject", "videoobject", "mediaobject", "podcastepisode", "episode", "audiobook", "musicrecording"]

    var topLevelTypes: [String] = []
    var media: [Item] = []

    static func read(_ document: Document) -> JSONLDMedia {
        var found = JSONLDMedia()
        for script in document.node.querySelectorAll("script[type]") where script.getAttribute("type")?.lowercased().hasPrefix("application/ld+json") == true {
            guard let json = try? JSONSerialization.jsonObject(with: Data(script.textContent.utf8)) else { continue }
            for top in topLevel(json) {
                found.topLevelTypes += types(of: top)
                found.walk(top, parentName: nil)
            }
        }
        return found
    }

    static func topLevel(_ json: Any) -> [[String: Any]] {
        if let array = json as? [Any] { return array.flatMap(topLevel) }
        guard let object = json as? [String: Any] else { return [] }
        if let graph = object["@graph"] { return [object] + topLevel(graph) }
        return [object]
    }

    static func types(of object: [String: Any]) -> [String] {
        ((object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [String]) ?? []).map { $0.lowercased() }
    }

    mutating func walk(_ value: Any, parentName: String?) {
        if let array = value as? [Any] {
            for item in array { walk(item, parentName: parentName) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        let kinds = Self.types(of: object)
        let name = (object["name"] as? String) ?? (object["headline"] as? String) ?? parentName
        if let kind = kinds.first(where: Self.mediaTypes.contains) {
            let duration = (object["duration"] as? String).flatMap(MediaEvidence.seconds(iso8601:))
            let signal = "json-ld \((object["@type"] as? String) ?? kind)"
            let format = (object["encodingFormat"] as? String)?.lowercased()
            if let url = (object["contentUrl"] ?? object["contentURL"]) as? String {
                media.append(Item(url: url, signal: signal, namesTheFile: true, name: name, duration: duration, format: format))
            } else if let url = object["url"] as? String {
                media.append(Item(url: url, signal: signal, namesTheFile: false, name: name, duration: duration, format: format))
            }
        }
        for key in ["associatedMedia", "audio", "video", "encoding", "mainEntity", "hasPart", "subjectOf", "trailer"] {
            if let nested = object[key] { walk(nested, parentName: name) }
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
