import Foundation
import PiperCore

/// Where follows and the episodes each has met are kept: the download journal (`Journal`, one
/// machine's SQLite: the CLI and a server on its own), or a store every server of a cluster
/// shares (PiperServer's `PostgresFollows`, `piper serve --postgres`). `FollowRefresher` and the
/// agent work through it; an episode a check finds is queued into the journal of the process
/// that checked (its agent downloads it), in the same step that notes it met.
///
/// The contract every implementation keeps (`FollowStoreContractTests`):
/// - a feed's URL is followed once;
/// - a follow is claimed by one checker at a time (`claimDueFollows`), until its check is
///   finished or its lease lapses (a checker that died holds nothing for long);
/// - each episode is met once per follow, known by its key, its enclosure URL, or its title with
///   its date, however many checkers meet it; a met episode stays met (removed from the library
///   or not), so it is never queued again.
package protocol FollowStore: AnyObject {
    /// Every follow, oldest first.
    func follows() throws -> [Follow]
    /// Records `follow` (its first check finished) with the episodes that check met, queueing
    /// those with a download into `journal`, all or nothing; false when its URL is followed already.
    func addFollow(_ follow: Follow, meeting episodes: [MetEpisode], queueingInto journal: Journal) throws -> Bool
    /// Stops following (its episodes' files stay in the library).
    func removeFollow(_ id: String) throws
    /// Takes the follows due by `now` (or `only` those, due or not) for this checker, each until
    /// `lease` has passed or its check is finished.
    func claimDueFollows(now: Date, only ids: [String]?, lease: TimeInterval) throws -> [Follow]
    /// The earliest time a follow is due (a claimed one once its lease lapses); nil when none is followed.
    func nextFollowCheck() throws -> Date?
    /// Records a check's end (its result, next check, validators, a moved URL, a stop) and lets the claim go.
    func finishCheck(_ follow: Follow) throws
    /// Notes each of `episodes` that `follow` has not met, queueing those with a download into
    /// `journal`; returns how many were queued.
    func meet(_ episodes: [MetEpisode], of follow: Follow, queueingInto journal: Journal) throws -> Int
    /// The episodes `follow` has met, newest first.
    func episodes(of follow: String) throws -> [FollowEpisode]
    /// The episodes downloaded for `follow` and still kept, newest first.
    func keptEpisodes(of follow: String) throws -> [FollowEpisode]
    /// Marks an episode's file as removed by the follow's `--keep`.
    func markEpisodeRemoved(_ key: String, of follow: String) throws
    /// What the file of the download `id` is named from, when a follow queued it (its date).
    func followPrefix(download id: String) throws -> String?
}

extension FollowStore {
    /// The follow of `url`, or named by `name` (its id, title or folder, case aside).
    package func follow(named name: String) throws -> Follow? {
        try follows().first { $0.id == name || $0.url == name || $0.title.lowercased() == name.lowercased() || $0.folder.lowercased() == name.lowercased() }
    }
}

/// An episode a check met: noted as met, and downloaded into the follow's folder when
/// `download` is set (named from `prefix`, its date).
package struct MetEpisode: Sendable, Equatable {
    package var episode: FollowEpisode
    package var download: URL?
    package var prefix: String?

    package init(_ episode: FollowEpisode, download: URL?, prefix: String?) {
        self.episode = episode
        self.download = download
        self.prefix = prefix
    }
}

/// A followed feed, as `piper follows` lists it.
public struct Follow: Sendable, Equatable {
    public var id: String
    /// The feed's address (moved by a permanent redirect or `itunes:new-feed-url`).
    public var url: String
    public var title: String
    /// The library folder its episodes land in.
    public var folder: String
    /// Keep only this many of the episodes Piper downloaded for it (nil: all).
    public var keep: Int?
    package var etag: String?
    package var lastModified: String?
    public var created: Date
    public var lastCheck: Date?
    /// What the last check found, in a sentence ("2 new episodes", "not modified", the failure).
    public var lastResult: String?
    public var nextCheck: Date
    /// Checks failed in a row (the backoff grows with it).
    public var failures: Int
    /// The feed's own wait between checks (`<ttl>`, `sy:updatePeriod`), in seconds.
    package var feedInterval: TimeInterval?
    /// Why it stopped (410 Gone), nil while followed.
    public var stopped: String?

    package init(id: String, url: String, title: String, folder: String, keep: Int?, etag: String? = nil, lastModified: String? = nil,
                 created: Date, lastCheck: Date? = nil, lastResult: String? = nil, nextCheck: Date, failures: Int = 0,
                 feedInterval: TimeInterval? = nil, stopped: String? = nil) {
        self.id = id
        self.url = url
        self.title = title
        self.folder = folder
        self.keep = keep
        self.etag = etag
        self.lastModified = lastModified
        self.created = created
        self.lastCheck = lastCheck
        self.lastResult = lastResult
        self.nextCheck = nextCheck
        self.failures = failures
        self.feedInterval = feedInterval
        self.stopped = stopped
    }
}

/// One episode a follow has met: downloaded for it, or older than its first take.
package struct FollowEpisode: Sendable, Equatable {
    package var key: String
    package var url: String
    package var title: String?
    package var published: Date?
    /// The download job, nil when the episode was only noted (older than the newest N).
    package var downloadID: String?

    package init(key: String, url: String, title: String?, published: Date?, downloadID: String?) {
        self.key = key
        self.url = url
        self.title = title
        self.published = published
        self.downloadID = downloadID
    }
}

/// The episodes a follow has met, by identity, enclosure URL, and title with date (a feed
/// without GUIDs that moved its files).
package struct KnownEpisodes {
    private var keys = Set<String>()
    private var urls = Set<String>()
    private var titled = Set<String>()

    package init() {}

    package func contains(_ episode: FollowEpisode) -> Bool {
        keys.contains(episode.key) || urls.contains(episode.url) || Self.titled(episode).map(titled.contains) == true
    }

    package mutating func insert(_ episode: FollowEpisode) {
        keys.insert(episode.key)
        urls.insert(episode.url)
        if let key = Self.titled(episode) { titled.insert(key) }
    }

    /// Those of `episodes` not met yet, in order; a feed that lists one item twice meets it once.
    package mutating func fresh(_ episodes: [MetEpisode]) -> [MetEpisode] {
        episodes.filter { met in
            guard !contains(met.episode) else { return false }
            insert(met.episode)
            return true
        }
    }

    private static func titled(_ episode: FollowEpisode) -> String? {
        guard let title = episode.title, let published = episode.published else { return nil }
        return "\(title)\u{1F}\(published.timeIntervalSince1970)"
    }
}

extension Journal {
    /// `shared` when there is one (a store every server shares), else this journal.
    package func followStore(_ shared: (any FollowStore & Sendable)?) -> any FollowStore {
        if let shared { return shared }
        return self
    }
}
