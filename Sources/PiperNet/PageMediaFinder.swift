import Foundation
import HTML
import PiperCore

/// Reads what a page is and which media it names (`RouteEvidence`), from the share's one parse
/// of it, in order of trust: Open Graph (`og:audio`, `og:video`), `<audio>`/`<video>` and their
/// `<source>`s, JSON-LD (`AudioObject`, `VideoObject`, `PodcastEpisode`… with a `contentUrl`),
/// known podcast hosts' players (a `data-*-url`, a file in the player's address), plain links
/// to a media file, then the page's own data (`PageData`); with each file what the page says of
/// it (its length, a preview loop, whether it sits beside the main content, whether its name is
/// the page's, whether the page offers it for download). The route itself is `RouteRules`' to
/// decide. Images are not media. The players' pages and the page's feeds are fetched only when
/// the route asks (`followPlayers`, `searchFeeds`).
public struct PageMediaFinder: MediaFinder {
    /// Fetches a player page or a feed the page links to; nil: nothing is followed.
    let fetch: (@Sendable (URL) -> Data?)?
    /// Hosts taken as podcast players besides the known ones (`PIPER_PLAYER_HOSTS`).
    let playerHosts: Set<String>

    /// A finder that follows players and feeds with `fetch`; `playerHosts` nil: those the
    /// environment names (`PIPER_PLAYER_HOSTS`).
    public init(fetch: (@Sendable (URL) -> Data?)? = nil, playerHosts: Set<String>? = nil) {
        self.fetch = fetch
        self.playerHosts = playerHosts ?? PodcastPlayers.extraHosts()
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
        // A site's front page or a page of many posts shows the latest episode's player as one
        // item of its list: its players are not the page's.
        let listing = ["", "/"].contains(page.finalURL.path) || document.node.querySelectorAll("article").count > RouteRules.maximumEpisodeFiles
        for (frame, url) in PodcastPlayers.frames(in: document, base: base, extraHosts: playerHosts)
        where !listing && !MediaEvidence.isIncidental(frame) {
            if let file = PodcastPlayers.fileInAddress(url) {
                if let found = candidate(file.absoluteString, .hostPlayer, "player", element: frame) { evidence.candidates.append(found) }
            } else if !evidence.players.contains(url) {
                evidence.players.append(url)
            }
        }
        if evidence.players.count > 2 { evidence.players = [] }   // a page of many players lists a show
        for element in document.node.querySelectorAll(MediaEvidence.fileAttributes.map { "[\($0)]" }.joined(separator: ", ")) {
            let raw = MediaEvidence.fileAttributes.lazy.compactMap { element.getAttribute($0) }.first
            if let found = candidate(raw, .player, "player data", requireMediaExtension: true, element: element,
                                     name: MediaEvidence.name(of: element) ?? MediaEvidence.titleAttribute(of: element)) {
                evidence.candidates.append(found)
            }
        }
        // The files the page offers for download, by host and file name (a player's address
        // and its download link differ in path or query on most podcast plugins).
        var downloads = Set<String>()
        let links = document.node.querySelectorAll("a[href]")
            .sorted(by: { $0.hasAttribute("download") && !$1.hasAttribute("download") })
        for link in links {
            guard var found = candidate(link.getAttribute("href"), .link, "link", requireMediaExtension: true, element: link,
                                        name: link.textContent.trimmingWhitespaceAndNewlines()) else { continue }
            if MediaEvidence.offersDownload(link) { downloads.insert(MediaEvidence.fileKey(found.url)) }
            if MediaEvidence.isDirectDownload(link) {
                // A post's own "Direct download" (Libsyn's classic page), in the post's footer box.
                found.offeredAsDownload = true
                found.incidental = false
            }
            evidence.candidates.append(found)
        }
        for index in evidence.candidates.indices where evidence.candidates[index].source != .link {
            if downloads.contains(MediaEvidence.fileKey(evidence.candidates[index].url)) { evidence.candidates[index].offeredAsDownload = true }
        }
        for item in PageData.read(document) {
            guard let found = candidate(item.url, .pageData, "page data", requireMediaExtension: true, name: item.name) else { continue }
            if let index = evidence.candidates.firstIndex(where: { $0.url == found.url }) {
                evidence.candidates[index].namedLikeThePage = evidence.candidates[index].namedLikeThePage || found.namedLikeThePage
            } else {
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

extension String {
    var nonEmptyOrNil: String? { isEmpty ? nil : self }
}
