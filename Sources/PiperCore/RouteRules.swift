import Foundation

/// A media file a page names, with what the page says about it: what the route decision reads.
public struct MediaCandidate: Sendable, Equatable {
    /// Where on the page it was named.
    public enum Source: String, Sendable, Equatable {
        case openGraphAudio, openGraphVideo, audioElement, videoElement, jsonLD, link
        /// A player's own element that names its file in a `data-*-url` attribute (Pocket
        /// Casts' `data-audio-url`).
        case player
        /// A known podcast host's embedded player in the main content whose address carries
        /// the file (Blubrry's `media_url`).
        case hostPlayer
        /// The page's own data: a `__NEXT_DATA__`-style JSON blob, a script's hydration or
        /// preload object, a block's `data-*-json` (Squarespace).
        case pageData
    }

    public var url: URL
    public var source: Source
    /// The signal as messages and tests name it (`og:audio`, `video source`, `json-ld AudioObject`, `link`).
    public var signal: String
    /// Its length in seconds, when the page says (JSON-LD `duration`, `data-durationhint`,
    /// `og:video:duration`/`music:duration`).
    public var duration: Double?
    /// A video that plays by itself, muted and looping: a background or a preview.
    public var preview: Bool
    /// In the page's navigation, an aside, a footer, a site header, or a box whose class or id
    /// names it as such (sidebar, related, promo, widget, ad): beside the main content, not in it.
    public var incidental: Bool
    /// Its own name (JSON-LD `name`, the element's title, the link's text) is the page's title.
    public var namedLikeThePage: Bool
    /// The page offers the file for download beside its player ("Download", a `download`
    /// link: PowerPress, Seriously Simple Podcasting, Castos) or as its post's "Direct
    /// download" (Libsyn): how podcast sites publish an episode, not how articles hold a clip.
    public var offeredAsDownload: Bool

    public init(url: URL, source: Source, signal: String, duration: Double? = nil, preview: Bool = false,
                incidental: Bool = false, namedLikeThePage: Bool = false, offeredAsDownload: Bool = false) {
        self.url = url
        self.source = source
        self.signal = signal
        self.duration = duration
        self.preview = preview
        self.incidental = incidental
        self.namedLikeThePage = namedLikeThePage
        self.offeredAsDownload = offeredAsDownload
    }

    /// An audio file: named by Open Graph audio or an `<audio>` player, or by its extension.
    public var isAudio: Bool {
        switch source {
        case .openGraphAudio, .audioElement: return true
        case .openGraphVideo, .videoElement: return false
        default: return MediaLinks.audioExtensions.contains(url.pathExtension.lowercased())
        }
    }
}

/// What a page says about itself and the media it names, read from one parse of it.
public struct RouteEvidence: Sendable, Equatable {
    /// The page declares itself an article (`og:type` article, JSON-LD `Article`, `NewsArticle`,
    /// `BlogPosting`… as a top-level entity).
    public var declaresArticle = false
    /// The page declares itself an episode or a media item (`og:type` `music.song`,
    /// `video.episode`, `video.movie`, `video.other`; JSON-LD `PodcastEpisode`, `Episode`,
    /// `AudioObject`, `VideoObject`, `Audiobook`… as a top-level entity).
    public var declaresEpisode = false
    /// What it declares is an episode of a series (`PodcastEpisode`, `Episode`, `RadioEpisode`,
    /// `og:type` `video.episode` or a podcast type): the kind of page a feed's item links to.
    public var declaresSeriesEpisode = false
    /// Every media file the page names, in the order of trust (Open Graph, players, JSON-LD, links).
    public var candidates: [MediaCandidate] = []
    /// The RSS and Atom feeds the page links (`<link rel=alternate>`), at most three.
    public var feeds: [URL] = []
    /// Known podcast hosts' embedded players in the main content (Buzzsprout, Libsyn,
    /// Megaphone… iframes), at most two: their pages name the episode's file.
    public var players: [URL] = []
    /// The page's title and author, for the library when the file's tags have none.
    public var title: String?
    public var author: String?

    public init(declaresArticle: Bool = false, declaresEpisode: Bool = false, declaresSeriesEpisode: Bool = false,
                candidates: [MediaCandidate] = [], feeds: [URL] = [], players: [URL] = [], title: String? = nil, author: String? = nil) {
        self.declaresArticle = declaresArticle
        self.declaresEpisode = declaresEpisode || declaresSeriesEpisode
        self.declaresSeriesEpisode = declaresSeriesEpisode
        self.candidates = candidates
        self.feeds = feeds
        self.players = players
        self.title = title
        self.author = author
    }

    /// `candidate` as the media port takes it, with the page's title and author.
    public func discovered(_ candidate: MediaCandidate) -> DiscoveredMedia {
        DiscoveredMedia(url: candidate.url, signal: candidate.signal, title: title, author: author)
    }
}

/// Which route a page takes.
public enum RouteDecision: Sendable, Equatable {
    /// The page is this episode: its media goes to the library.
    case episode(MediaCandidate)
    /// The page is an article; `alsoFound` is media it names that the user may want instead
    /// (said beside the saved article: "share with --as media").
    case article(alsoFound: MediaCandidate?)
    /// The page names media in its main content without saying what it is: an article if it
    /// has an article's text, else (too short, or not readerable) the episode.
    case articleUnlessTooShort(MediaCandidate)
    /// The page carries an episode signal whose file is elsewhere: a known host's player
    /// (its page names the file) or the show's feed (an item linking here). When neither
    /// names it, the page takes the `otherwise` route.
    indirect case lookUp(EpisodeLookup, otherwise: RouteDecision)
}

/// Where a page's episode may be named when the page itself does not name the file.
public struct EpisodeLookup: Sendable, Equatable {
    /// Known podcast hosts' player pages embedded in the main content, asked first.
    public var players: [URL]
    /// The page's feeds: the item whose link is this page names its file.
    public var feeds: [URL]

    public init(players: [URL] = [], feeds: [URL] = []) {
        self.players = players
        self.feeds = feeds
    }
}

/// The route decision: pure rules over `RouteEvidence`. The route is decided by what the page
/// is, not by what it contains: an article that holds a clip is an article.
public enum RouteRules {
    /// A file shorter than this is a clip (a pronunciation, an anthem sample, a product demo,
    /// an ad), not an episode or a book part. The anthem on an encyclopedia page that was
    /// queued as a download runs 62 s; the shortest podcast episodes run a few minutes.
    public static let minimumEpisodeSeconds: Double = 120
    /// A page naming more distinct files than this in its main content is a listing (a show
    /// page, a "best podcasts" list), not one episode.
    public static let maximumEpisodeFiles = 3

    /// A candidate that can be the page's subject: not a preview loop, not beside the main
    /// content, not a clip.
    public static func isEligible(_ candidate: MediaCandidate) -> Bool {
        !candidate.preview && !candidate.incidental && !isClip(candidate)
    }

    /// Shorter than an episode, when the page says how long it is.
    public static func isClip(_ candidate: MediaCandidate) -> Bool {
        candidate.duration.map { $0 < minimumEpisodeSeconds } ?? false
    }

    /// A candidate that names itself the page's file: Open Graph's audio (how podcast hosts
    /// name an episode's file for other apps), a player, media object or page data whose own
    /// name is the page's title, a podcast host's player, or an audio file the page offers for
    /// download beside its player.
    public static func namesTheEpisode(_ candidate: MediaCandidate) -> Bool {
        candidate.source == .openGraphAudio || candidate.source == .hostPlayer || candidate.namedLikeThePage
            || candidate.offeredAsDownload && candidate.isAudio
    }

    /// The route of a page with this evidence, as `preference` (`--as`) asks.
    public static func decide(_ evidence: RouteEvidence, preference: RoutePreference) -> RouteDecision {
        switch preference {
        case .article:
            return .article(alsoFound: nil)
        case .media:
            // Asked for media: whatever file the page names, previews last.
            if let candidate = evidence.candidates.first(where: { !$0.preview }) ?? evidence.candidates.first {
                return .episode(candidate)
            }
            let lookup = EpisodeLookup(players: evidence.players, feeds: evidence.feeds)
            return lookup.players.isEmpty && lookup.feeds.isEmpty ? .article(alsoFound: nil) : .lookUp(lookup, otherwise: .article(alsoFound: nil))
        case .auto:
            return automatic(evidence)
        }
    }

    /// The page's route weighed from all it says: what it declares (an article, an episode),
    /// the files it shows and how it names them, its page data, its host's player and its
    /// feed. A generic `og:type article` (every WordPress, Ghost or Hugo post says it) does not
    /// outweigh an episode's own signals; a page with nothing but a file in its main content
    /// stays an article unless its feed names it or it is too short for one.
    static func automatic(_ evidence: RouteEvidence) -> RouteDecision {
        let eligible = evidence.candidates.filter(isEligible)
        // The files the page shows (its page data may hold a whole show's list).
        let shown = eligible.filter { $0.source != .pageData }
        let data = eligible.filter { $0.source == .pageData }
        let dataFiles = Set(data.map(\.url)).count
        let first = shown.first ?? data.first
        if Set(shown.map(\.url)).count > maximumEpisodeFiles { return .article(alsoFound: first) }
        // Against a declared article, only an audio file outweighs it (a news story's video is
        // named as the story); page data names an episode only as audio (a page's data holds
        // its clips' files too).
        let articleOnly = evidence.declaresArticle && !evidence.declaresEpisode
        if let named = eligible.first(where: { namesTheEpisode($0) && ($0.isAudio || !articleOnly && $0.source != .pageData) }) {
            return .episode(named)
        }
        if evidence.declaresEpisode {
            if let file = shown.first ?? (dataFiles == 1 ? data.first : nil) { return .episode(file) }
            // Only a series' episode is an item of the page's feeds.
            let lookup = EpisodeLookup(players: evidence.players, feeds: evidence.declaresSeriesEpisode ? evidence.feeds : [])
            return lookup.players.isEmpty && lookup.feeds.isEmpty ? .article(alsoFound: nil) : .lookUp(lookup, otherwise: .article(alsoFound: nil))
        }
        let otherwise: RouteDecision
        if evidence.declaresArticle {
            otherwise = .article(alsoFound: first)
        } else if let own = shown.first {
            otherwise = .articleUnlessTooShort(own)
        } else {
            otherwise = .article(alsoFound: first)
        }
        // An audio file in the main content or in the page's own data (not a whole list) is
        // an episode signal: the show's feed naming this page confirms it.
        let audio = shown.contains(where: \.isAudio) || dataFiles <= maximumEpisodeFiles && data.contains(where: \.isAudio)
        let lookup = EpisodeLookup(players: evidence.players, feeds: audio ? evidence.feeds : [])
        if !lookup.players.isEmpty || !lookup.feeds.isEmpty { return .lookUp(lookup, otherwise: otherwise) }
        return otherwise
    }
}
