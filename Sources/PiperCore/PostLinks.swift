import Foundation

/// The networks Piper reads posts from.
public enum PostNetwork: String, Sendable, Equatable, CaseIterable {
    case x = "X", mastodon = "Mastodon", bluesky = "Bluesky", reddit = "Reddit"
}

/// The one rule that says what kind of post a link is: X (read from its rendered page),
/// Mastodon, Bluesky or Reddit (read from the network's public API), or none. It decides from
/// the URL alone where it can (X, Bluesky, Reddit: their own hosts), and from the loaded page
/// for Mastodon, whose instances are any host (a status path on a page Mastodon's web app serves).
public struct PostLinks: Sendable, Equatable {
    /// Extra hosts whose pages are X pages (`PIPER_X_HOSTS`, else `xHosts` in the config file:
    /// a mirror front end people read X through, or a local name in tests).
    public var xHosts: Set<String>
    /// Hosts whose pages are Bluesky's: `bsky.app`, and `PIPER_BLUESKY_HOSTS`.
    public var blueskyHosts: Set<String>
    /// The public AppView that answers `getPostThread` (`PIPER_BLUESKY_APPVIEW`).
    public var blueskyAppView: String
    /// Hosts whose links are Reddit's beside reddit.com, its subdomains and redd.it
    /// (`PIPER_REDDIT_HOSTS`: a local name in tests).
    public var redditHosts: Set<String>
    /// Where Reddit's JSON is asked for (`PIPER_REDDIT_BASE`; `https://www.reddit.com`): a
    /// local model of Reddit in tests.
    public var redditBase: String

    /// The rule with only the networks' own hosts.
    public init(xHosts: Set<String> = [], blueskyHosts: Set<String> = [], blueskyAppView: String = "https://public.api.bsky.app",
                redditHosts: Set<String> = [], redditBase: String = "https://www.reddit.com") {
        self.xHosts = xHosts
        self.blueskyHosts = blueskyHosts.union(["bsky.app"])
        self.blueskyAppView = blueskyAppView
        self.redditHosts = redditHosts
        self.redditBase = redditBase
    }

    /// The rule as the environment and the config file set it.
    public static func from(environment: [String: String] = ProcessInfo.processInfo.environment) -> PostLinks {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var links = PostLinks(xHosts: xHosts(environment: environment),
                              blueskyHosts: Set(ConfigFile.hostList(environment["PIPER_BLUESKY_HOSTS"])),
                              redditHosts: Set(ConfigFile.hostList(environment["PIPER_REDDIT_HOSTS"])))
        if let appView = value("PIPER_BLUESKY_APPVIEW") { links.blueskyAppView = appView }
        if let base = value("PIPER_REDDIT_BASE") { links.redditBase = base }
        return links
    }

    /// The extra X hosts: `PIPER_X_HOSTS` (host names, comma-separated) when set, else `xHosts`
    /// in the config file (`piper config set x-hosts …`).
    public static func xHosts(environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        if let listed = environment["PIPER_X_HOSTS"], !listed.isEmpty { return Set(ConfigFile.hostList(listed)) }
        let location = ConfigLocation.resolve(environment: environment)
        let file = (try? ConfigFile.read(location.file)) ?? location.legacy.flatMap { try? ConfigFile.read($0) }
        return Set(ConfigFile.hostList(file?.xHosts))
    }

    /// True for X's own hosts and the extra ones: pages loaded in the browser, read as posts.
    public func isX(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        return XLinks.isXHost(host) || xHosts.contains(host)
    }

    /// The post `url` names, decided from the link alone: X, Bluesky and Reddit (nil for
    /// Mastodon, which needs the page, and for every other link).
    public func post(at url: URL) -> PostSource? {
        if isX(url) { return PostSource(network: .x, url: url) }
        if let host = url.host?.lowercased(), blueskyHosts.contains(host), Self.atURI(url) != nil {
            return PostSource(network: .bluesky, url: url).using(self)
        }
        if isRedditPost(url) { return PostSource(network: .reddit, url: url).using(self) }
        return nil
    }

    /// The post a loaded page is: what `post(at:)` says of its final URL, or a Mastodon status
    /// (a status path on a page whose root element is `#mastodon`).
    public func post(in page: LoadedPage) -> PostSource? {
        if let source = post(at: page.finalURL) { return source }
        guard Self.mastodonStatusID(page.finalURL) != nil,
              page.body.range(of: Data("id=\"mastodon\"".utf8)) != nil || page.body.range(of: Data("id='mastodon'".utf8)) != nil
        else { return nil }
        return PostSource(network: .mastodon, url: page.finalURL)
    }

    /// `/@user/123456` or `/users/user/statuses/123456` on any instance: the status id.
    public static func mastodonStatusID(_ url: URL) -> String? {
        let parts = url.path.split(separator: "/")
        guard parts.count >= 2, let last = parts.last, last.allSatisfy(\.isNumber),
              parts[parts.count - 2].hasPrefix("@") || (parts.count >= 4 && parts[parts.count - 2] == "statuses") else { return nil }
        return String(last)
    }

    /// `https://bsky.app/profile/HANDLE/post/RKEY`: the `at://` URI the AppView takes.
    public static func atURI(_ url: URL) -> String? {
        let parts = url.path.split(separator: "/")
        guard parts.count == 4, parts[0] == "profile", parts[2] == "post" else { return nil }
        return "at://\(parts[1])/app.bsky.feed.post/\(parts[3])"
    }

    /// A Reddit post link: `/r/SUB/comments/ID/…` or `/comments/ID` on reddit.com (any of its
    /// subdomains), `redd.it/ID`, or a share link `/r/SUB/s/CODE` (which redirects to the post).
    func isRedditPost(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let parts = url.path.split(separator: "/")
        if host == "redd.it" { return parts.count == 1 }
        guard host == "reddit.com" || host.hasSuffix(".reddit.com") || redditHosts.contains(host) else { return false }
        return Self.redditPostID(parts) != nil || Self.isRedditShareLink(parts)
    }

    static func redditPostID(_ parts: [Substring]) -> Substring? {
        guard let index = parts.firstIndex(of: "comments"), index + 1 < parts.count,
              index == 0 || (index == 2 && parts[0] == "r") else { return nil }
        return parts[index + 1]
    }

    static func isRedditShareLink(_ parts: [Substring]) -> Bool {
        parts.count == 4 && parts[0] == "r" && parts[2] == "s"
    }
}

/// A post the rule found: its network and link, and the calls to the network's public API
/// that give its thread, one after the other (`nextCall`). X's post is read from its page.
public struct PostSource: Sendable, Equatable {
    public var network: PostNetwork
    /// The post's link (after redirects, for a page that was loaded).
    public var url: URL
    var redditBase = "https://www.reddit.com"
    var blueskyAppView = "https://public.api.bsky.app"

    public init(network: PostNetwork, url: URL) {
        self.network = network
        self.url = url
    }

    init(network: PostNetwork, url: URL, redditBase: String, blueskyAppView: String) {
        self.init(network: network, url: url)
        self.redditBase = redditBase
        self.blueskyAppView = blueskyAppView
    }

    /// The source with the rule's API addresses.
    func using(_ links: PostLinks) -> PostSource {
        PostSource(network: network, url: url, redditBase: links.redditBase, blueskyAppView: links.blueskyAppView)
    }

    /// The next API call once `answers` came back, or nil when the thread is all there (or an
    /// answer was an error, which the reader turns into its reason). Mastodon: the status,
    /// then its context; Bluesky: `getPostThread`; Reddit: the post's JSON (a share link is
    /// first followed to the post it redirects to).
    public func nextCall(after answers: [LoadedPage]) -> URL? {
        if let last = answers.last, !(200..<300).contains(last.statusCode) {
            // An error answer ends the calls; a share link's page was only asked for its redirect.
            guard isShareLink && answers.count == 1 else { return nil }
        }
        switch network {
        case .x:
            return nil
        case .mastodon:
            guard let id = PostLinks.mastodonStatusID(url), let scheme = url.scheme, let host = url.host, answers.count < 2 else { return nil }
            let base = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/api/v1/statuses/\(id)"
            return URL(string: answers.isEmpty ? base : base + "/context")
        case .bluesky:
            guard answers.isEmpty, let uri = PostLinks.atURI(url),
                  let encoded = uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
            return URL(string: "\(blueskyAppView)/xrpc/app.bsky.feed.getPostThread?uri=\(encoded)&depth=20&parentHeight=0")
        case .reddit:
            if isShareLink {
                if answers.isEmpty { return URL(string: redditBase + url.path) }
                guard answers.count == 1 else { return nil }
                return redditJSON(answers[0].finalURL)
            }
            return answers.isEmpty ? redditJSON(url) : nil
        }
    }

    /// A Reddit share link (`/r/SUB/s/CODE`), first followed to the post it redirects to.
    public var isShareLink: Bool { network == .reddit && PostLinks.isRedditShareLink(url.path.split(separator: "/")) }

    /// The post's JSON (`…/comments/ID/slug.json?raw_json=1`; `redd.it/ID` is `/comments/ID`).
    func redditJSON(_ post: URL) -> URL? {
        let parts = post.path.split(separator: "/")
        let path: String
        if post.host?.lowercased() == "redd.it", let id = parts.first {
            path = "/comments/\(id)"
        } else if PostLinks.redditPostID(parts) != nil {
            path = "/" + parts.joined(separator: "/")
        } else {
            return nil
        }
        return URL(string: "\(redditBase)\(path).json?raw_json=1")
    }
}

/// A post's answers, as the share fetched them: for X its loaded page; for the others each API
/// call's answer in order, whatever its status (an error answer's body says why).
public struct FetchedPost: Sendable, Equatable {
    public var source: PostSource
    public var answers: [LoadedPage]

    public init(source: PostSource, answers: [LoadedPage]) {
        self.source = source
        self.answers = answers
    }
}
