import Foundation

/// A media file a page names, with what the page says about it: what the route decision reads.
public struct MediaCandidate: Sendable, Equatable {
    /// Where on the page it was named.
    public enum Source: String, Sendable, Equatable {
        case openGraphAudio, openGraphVideo, audioElement, videoElement, jsonLD, link
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

    public init(url: URL, source: Source, signal: String, duration: Double? = nil, preview: Bool = false,
                incidental: Bool = false, namedLikeThePage: Bool = false) {
        self.url = url
        self.source = source
        self.signal = signal
        self.duration = duration
        self.preview = preview
        self.incidental = incidental
        self.namedLikeThePage = namedLikeThePage
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
    /// The page's title and author, for the library when the file's tags have none.
    public var title: String?
    public var author: String?

    public init(declaresArticle: Bool = false, declaresEpisode: Bool = false, declaresSeriesEpisode: Bool = false,
                candidates: [MediaCandidate] = [], feeds: [URL] = [], title: String? = nil, author: String? = nil) {
        self.declaresArticle = declaresArticle
        self.declaresEpisode = declaresEpisode || declaresSeriesEpisode
        self.declaresSeriesEpisode = declaresSeriesEpisode
        self.candidates = candidates
        self.feeds = feeds
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
    /// The page declares an episode of a series but names no file: its feeds may (an item
    /// linking here).
    case searchFeeds([URL])
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
    /// name an episode's file for other apps), or a player or media object whose own name is
    /// the page's title.
    public static func namesTheEpisode(_ candidate: MediaCandidate) -> Bool {
        candidate.source == .openGraphAudio || candidate.namedLikeThePage
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
            return evidence.feeds.isEmpty ? .article(alsoFound: nil) : .searchFeeds(evidence.feeds)
        case .auto:
            let eligible = evidence.candidates.filter(isEligible)
            let first = eligible.first
            if evidence.declaresArticle && !evidence.declaresEpisode { return .article(alsoFound: first) }
            if Set(eligible.map(\.url)).count > maximumEpisodeFiles { return .article(alsoFound: first) }
            if evidence.declaresEpisode {
                if let first { return .episode(first) }
                // Only a series' episode is an item of the page's feeds.
                return evidence.declaresSeriesEpisode && !evidence.feeds.isEmpty ? .searchFeeds(evidence.feeds) : .article(alsoFound: nil)
            }
            guard let first else { return .article(alsoFound: nil) }
            return namesTheEpisode(first) ? .episode(first) : .articleUnlessTooShort(first)
        }
    }
}
