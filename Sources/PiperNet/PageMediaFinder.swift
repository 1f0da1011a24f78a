import Foundation
import HTML
import PiperCore

/// Finds the media an HTML page names, in order of trust: JSON-LD (`AudioObject`,
/// `VideoObject`, `PodcastEpisode`… with a `contentUrl`), Open Graph (`og:audio`, `og:video`),
/// `<audio>`/`<video>` and their `<source>`s, then plain links to a media file. Images and
/// embedded players are not media; a muted looping autoplay video is a preview clip, skipped.
public struct PageMediaFinder: MediaFinder {
    public init() {}

    public func findMedia(in page: LoadedPage) -> DiscoveredMedia? {
        guard page.contentType.map({ ContentType.mediaType(of: $0) == "text/html" || ContentType.mediaType(of: $0) == "application/xhtml+xml" }) ?? true else {
            return nil
        }
        let document = Document.parse(bytes: [UInt8](page.body), options: ParseOptions(transportEncoding: page.charset))
        let base = document.node.querySelector("base[href]")?.getAttribute("href")
            .flatMap { URL(string: $0, relativeTo: page.finalURL)?.absoluteURL } ?? page.finalURL
        let title = meta(document, "og:title") ?? document.title.trimmingCharacters(in: .whitespacesAndNewlines).nonEmptyOrNil
        let author = meta(document, "author") ?? meta(document, "article:author")
        func found(_ raw: String?, _ signal: String, requireMediaExtension: Bool = false) -> DiscoveredMedia? {
            guard let raw, let url = URL(string: raw.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: base)?.absoluteURL,
                  WebURL.isWeb(url), !ShareRouting.isImage(url) else { return nil }
            if requireMediaExtension, !MediaLinks.hasMediaExtension(url) { return nil }
            return DiscoveredMedia(url: url, signal: signal, title: title, author: author)
        }
        for (url, signal, strict) in JSONLDMedia.contentURLs(in: document) {
            if let media = found(url, signal, requireMediaExtension: !strict) { return media }
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
        let links = document.node.querySelectorAll("a[href]")
        for link in links.sorted(by: { $0.hasAttribute("download") && !$1.hasAttribute("download") }) {
            if let media = found(link.getAttribute("href"), "link", requireMediaExtension: true) { return media }
        }
        return nil
    }

    /// A video that plays by itself, muted and looping, is decoration or a preview.
    static func isPreviewClip(_ element: Node) -> Bool {
        element.localName == "video" && element.hasAttribute("autoplay") && element.hasAttribute("muted") && element.hasAttribute("loop")
    }

    func meta(_ document: Document, _ name: String) -> String? {
        for element in document.node.getElementsByTagName("meta") {
            let key = element.getAttribute("property") ?? element.getAttribute("name")
            if key?.lowercased() == name, let content = element.getAttribute("content")?.trimmingCharacters(in: .whitespaces), !content.isEmpty {
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

private extension String {
    var nonEmptyOrNil: String? { isEmpty ? nil : self }
}
