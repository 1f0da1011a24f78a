import Foundation
import HTML
import PiperCore

/// Podcast hosts' embedded players: the iframe a show's site puts in an episode post
/// (Buzzsprout, Libsyn, Megaphone, Simplecast…). The player's page names the episode's file;
/// some players carry it in their own address (Blubrry's `media_url`).
enum PodcastPlayers {
    /// The hosts whose embedded players play one episode (each with its subdomains).
    static let hosts: [String] = [
        "buzzsprout.com", "libsyn.com", "megaphone.fm", "simplecast.com", "transistor.fm", "captivate.fm", "podbean.com",
        "spreaker.com", "acast.com", "omny.fm", "blubrry.com", "castos.com", "fireside.fm", "art19.com", "audioboom.com",
        "redcircle.com", "podomatic.com", "anchor.fm", "pinecast.com", "podiant.co", "whooshkaa.com",
    ]
    /// Query parameters in which a player's address carries the file itself.
    static let fileParameters: Set<String> = ["media_url", "mediaurl", "audio_url", "file", "url", "src", "mp3"]

    /// The extra hosts taken as podcast players (`PIPER_PLAYER_HOSTS`, comma-separated): a
    /// host's own domain, a local name in tests.
    static func extraHosts(environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        guard let listed = environment["PIPER_PLAYER_HOSTS"], !listed.isEmpty else { return [] }
        return Set(ConfigFile.hostList(listed))
    }

    /// True for an address on a known podcast host (or one of `extraHosts`).
    static func isPlayer(_ url: URL, extraHosts: Set<String>) -> Bool {
        guard WebURL.isWeb(url), let host = url.host?.lowercased() else { return false }
        if extraHosts.contains(host) { return true }
        return hosts.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The media file a player's address names in its query, or nil.
    static func fileInAddress(_ url: URL) -> URL? {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems else { return nil }
        for item in items where fileParameters.contains(item.name.lowercased()) {
            if let value = item.value, let file = URL(string: value), WebURL.isWeb(file), MediaLinks.hasMediaExtension(file) { return file }
        }
        return nil
    }

    /// The player iframes of a page (`src`, or `data-src` when lazily loaded), resolved.
    static func frames(in document: Document, base: URL, extraHosts: Set<String>) -> [(Node, URL)] {
        document.node.querySelectorAll("iframe").compactMap { frame in
            guard let raw = frame.getAttribute("src") ?? frame.getAttribute("data-src"),
                  let url = URL(string: raw.trimmingWhitespaceAndNewlines(), relativeTo: base)?.absoluteURL,
                  isPlayer(url, extraHosts: extraHosts) else { return nil }
            return (frame, url)
        }
    }

    /// The file a fetched player page plays: what its markup names (Open Graph, a player, a
    /// `data-*-url`, JSON-LD, a link), else what its script data names; nil when it names
    /// none, or more than one (a playlist player).
    static func file(inPlayerPage data: Data, at url: URL, finder: PageMediaFinder) -> URL? {
        let page = LoadedPage(requestedURL: url, contentType: "text/html", body: data)
        let evidence = finder.evidence(in: ParsedPage(page: page, tree: DocumentTree(page)))
        let files = evidence.candidates.filter { !$0.preview }
        let shown = files.filter { $0.source != .pageData }
        if let first = shown.first { return first.url }
        return Set(files.map(\.url)).count == 1 ? files.first?.url : nil
    }
}
