import Foundation
import PiperCore

/// Follows feeds: `start` takes a feed's newest episodes and records the follow; `refreshDue`
/// checks the follows that are due (a bounded number at once) and queues each new episode
/// once, in the follow's folder, named by its date. An episode is known by its GUID, else its
/// enclosure URL, else its title and date, so a feed that rewrites its enclosure URLs or
/// republishes an item is not downloaded again; an episode removed from the library stays known.
public struct FollowRefresher: Sendable {
    public let state: StateFolder
    package var fetch: FeedFetch
    /// Where the follows are kept: nil for this machine's download journal, or a store every
    /// server shares (`piper serve --postgres`). Episodes are queued into the journal either way.
    package var store: (any FollowStore & Sendable)?
    public var schedule = FollowSchedule()
    /// Feeds checked at once.
    public var concurrency = 8
    /// How long a claimed check keeps other processes off the feed.
    package var lease: TimeInterval = 120
    /// The random draw for the schedule's jitter (a test fixes it).
    package var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// The library's catalog when it is not `library.sqlite` (`--keep` removes through it).
    package var catalog: (any CatalogStore & Sendable)?

    public init(state: StateFolder) {
        self.state = state
        fetch = FeedFetch()
    }

    /// Why a follow could not be started.
    public enum StartError: PiperError, Equatable {
        case alreadyFollowed(String)
        case unreadable(String, String)
        case noFeed(String)

        public var description: String {
            switch self {
            case .alreadyFollowed(let title): return "Already following \(title) (see 'piper follows')"
            case .unreadable(let url, let reason): return "Cannot read the feed at \(url): \(reason)"
            case .noFeed(let url): return "\(url) is neither a podcast feed nor a page that links one"
            }
        }
        public var category: ErrorCategory {
            switch self {
            case .alreadyFollowed, .noFeed: return .badData
            case .unreadable: return .unavailable
            }
        }
    }

    /// What one check found.
    public struct Check: Sendable, Equatable {
        public var follow: Follow
        public var queued: Int
        public var removed: Int
        public var bytes: Int
    }

    /// Follows `url` (a feed, or a page that links its feed): the newest `newest` episodes (nil:
    /// all) are queued now, the older ones only noted, and every later one will be queued.
    public func start(url: URL, into folder: String?, keep: Int?, newest: Int?) throws -> Check {
        var feedURL = url
        var result = fetch.fetch(url, etag: nil, lastModified: nil)
        var feed = try parsed(result, url: url)
        if feed == nil, case .fetched(let body, _, _, _) = result.answer,
           let link = Playlist.feedLinks(inPage: String(decoding: body, as: UTF8.self), base: result.movedTo ?? url).first {
            feedURL = link
            result = fetch.fetch(link, etag: nil, lastModified: nil)
            feed = try parsed(result, url: link)
        }
        guard let feed, case .fetched(_, _, let etag, let lastModified) = result.answer else { throw StartError.noFeed(url.absoluteString) }
        feedURL = result.movedTo ?? feed.newFeedURL ?? feedURL
        let title = feed.title ?? feedURL.host ?? "Podcast"
        let target = [folder, DownloadFileName.sanitize(title)].compactMap { $0 }.joined(separator: "/")
        let journal = try Journal(state: state)
        let store = journal.followStore(self.store)
        let now = Date()
        let take = newest.map { Set(feed.entries.prefix($0).map(\.url)) } ?? Set(feed.entries.map(\.url))
        var known = KnownEpisodes()
        let met = known.fresh(Self.met(feed.entries, queueing: { take.contains($0.url) }))
        let queued = met.filter { $0.download != nil }.count
        var follow = Follow(id: Journal.newID(), url: feedURL.absoluteString, title: title, folder: target, keep: keep, etag: etag,
                            lastModified: lastModified, created: now, nextCheck: now)
        finish(&follow, at: now, result: Self.newEpisodes(queued), failed: false, feedInterval: feed.checkInterval)
        // One step: a crash leaves the follow with its first episodes noted, or no follow.
        guard try store.addFollow(follow, meeting: met, queueingInto: journal) else {
            throw StartError.alreadyFollowed(try store.follow(named: follow.url)?.title ?? title)
        }
        return Check(follow: follow, queued: queued, removed: try applyKeep(follow, store: store, journal: journal), bytes: result.bytes)
    }

    /// Checks every follow that is due (or, with `only`, those follows now), at most
    /// `concurrency` at once, and returns what each found.
    public func refreshDue(only ids: [String]? = nil, now: Date = Date()) throws -> [Check] {
        let journal = try Journal(state: state)
        let due = try journal.followStore(store).claimDueFollows(now: now, only: ids, lease: lease)
        guard !due.isEmpty else { return [] }
        // One connection for the whole pass: its queue serializes the checks' writes (opening
        // the journal for each of 500 feeds was most of a pass's CPU).
        let shared = SharedJournal(journal)
        let results = CheckResults()
        let gate = DispatchSemaphore(value: max(1, concurrency))
        let group = DispatchGroup()
        for follow in due {
            gate.wait()
            DispatchQueue.global().async(group: group) {
                defer { gate.signal() }
                results.append(check(follow, journal: shared.journal))
            }
        }
        group.wait()
        return results.all.sorted { $0.follow.created < $1.follow.created }
    }

    /// One check of one follow; never throws (a failure is the check's result, and backoff).
    func check(_ claimed: Follow, journal shared: Journal? = nil) -> Check {
        var follow = claimed
        let now = Date()
        let result = fetch.fetch(URL(string: follow.url) ?? URL(fileURLWithPath: "/"), etag: follow.etag, lastModified: follow.lastModified)
        do {
            let journal = try shared ?? Journal(state: state)
            let store = journal.followStore(self.store)
            if let moved = result.movedTo { follow.url = moved.absoluteString }
            var queued = 0
            switch result.answer {
            case .notModified:
                finish(&follow, at: now, result: "Not modified", failed: false, feedInterval: follow.feedInterval)
            case .gone:
                follow.stopped = "The feed is gone (HTTP 410 Gone); no longer checked"
                finish(&follow, at: now, result: follow.stopped ?? "", failed: true, feedInterval: nil)
            case .failed(let reason, let retryAfter):
                finish(&follow, at: now, result: reason, failed: true, feedInterval: follow.feedInterval, retryAfter: retryAfter)
            case .fetched(_, _, let etag, let lastModified):
                guard let feed = try parsed(result, url: URL(string: follow.url) ?? URL(fileURLWithPath: "/")) else {
                    finish(&follow, at: now, result: "The feed could not be read as RSS or Atom", failed: true, feedInterval: follow.feedInterval)
                    break
                }
                queued = try store.meet(Self.met(feed.entries, queueing: { _ in true }), of: follow, queueingInto: journal)
                follow.etag = etag
                follow.lastModified = lastModified
                if let moved = feed.newFeedURL, moved.absoluteString != follow.url { follow.url = moved.absoluteString }
                finish(&follow, at: now, result: Self.newEpisodes(queued), failed: false, feedInterval: feed.checkInterval)
            }
            try store.finishCheck(follow)
            return Check(follow: follow, queued: queued, removed: try applyKeep(follow, store: store, journal: journal), bytes: result.bytes)
        } catch {
            follow.lastResult = "\(error)"
            return Check(follow: follow, queued: 0, removed: 0, bytes: result.bytes)
        }
    }

    /// The feed in a fetched answer; nil when the body is no feed (a page), thrown when the fetch failed.
    private func parsed(_ result: FeedFetch.Result, url: URL) throws -> Playlist? {
        switch result.answer {
        case .fetched(let body, _, _, _):
            return try? Playlist.parse(body, kind: .feed, base: result.movedTo ?? url)
        case .notModified, .gone:
            throw StartError.unreadable(url.absoluteString, result.answer == .gone ? "HTTP 410 Gone" : "HTTP 304 Not Modified")
        case .failed(let reason, _):
            throw StartError.unreadable(url.absoluteString, reason)
        }
    }

    private func finish(_ follow: inout Follow, at now: Date, result: String, failed: Bool, feedInterval: TimeInterval?,
                        retryAfter: TimeInterval? = nil) {
        follow.lastCheck = now
        follow.lastResult = result
        follow.failures = failed ? follow.failures + 1 : 0
        follow.feedInterval = feedInterval
        follow.nextCheck = schedule.nextCheck(after: now, feedInterval: feedInterval, failures: follow.failures,
                                              retryAfter: retryAfter, random: random())
    }

    static func newEpisodes(_ n: Int) -> String {
        n == 0 ? "No new episodes" : "\(n) new episode\(n == 1 ? "" : "s")"
    }
}

/// The checks finished by the refresh's threads.
private final class CheckResults: @unchecked Sendable {
    private let lock = NSLock()
    private var checks: [Check] = []
    typealias Check = FollowRefresher.Check

    func append(_ check: Check) { lock.lock(); checks.append(check); lock.unlock() }
    var all: [Check] { lock.lock(); defer { lock.unlock() }; return checks }
}

/// The pass's one journal, handed to the checks' threads: its `DatabaseQueue` runs one call at
/// a time on the connection, so sharing it is safe.
private final class SharedJournal: @unchecked Sendable {
    let journal: Journal
    init(_ journal: Journal) { self.journal = journal }
}
