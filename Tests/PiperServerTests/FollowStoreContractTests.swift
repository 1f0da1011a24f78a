import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// One server's hold on a follow store: its handle, and the journal its checks queue into.
/// On SQLite both servers are one machine (the journal is the store); on PostgreSQL each has
/// its own connection pool and its own state folder, as two servers have.
struct FollowSide: Sendable {
    /// What a `FollowRefresher` or an agent is handed (nil: its journal).
    let shared: (any FollowStore & Sendable)?
    let state: StateFolder

    var journal: Journal { get throws { try Journal(state: state) } }

    /// The side's handle on the store (on SQLite, a journal connection of its own each time).
    var store: any FollowStore {
        get throws {
            if let shared { return shared }
            return try journal
        }
    }

    func refresher() -> FollowRefresher {
        var refresher = FollowRefresher(state: state)
        refresher.store = shared
        return refresher
    }
}

/// Two sides on one fresh follow store of `driver`, and the cleanup.
func makeFollowStores(_ driver: CredentialDriver) throws -> (a: FollowSide, b: FollowSide, cleanup: () -> Void) {
    switch driver {
    case .sqlite:
        let state = StateFolder(url: try freshDirectory("follows"))
        try state.ensure()
        return (FollowSide(shared: nil, state: state), FollowSide(shared: nil, state: state), {})
    case .postgres:
        let schema = try FreshPostgresSchema()
        let states = (StateFolder(url: try freshDirectory("follows-a")), StateFolder(url: try freshDirectory("follows-b")))
        try states.0.ensure()
        try states.1.ensure()
        let (a, b) = (PostgresFollows(database: try schema.open(connections: 4)), PostgresFollows(database: try schema.open(connections: 4)))
        return (FollowSide(shared: a, state: states.0), FollowSide(shared: b, state: states.1), { schema.drop() })
    }
}

/// The follow store's contract (`FollowStore`), for the download journal and PostgreSQL alike,
/// through two handles on one store (as two servers hold): a follow is one wherever it was
/// made, a feed is claimed by one checker at a time until its check ends or its lease lapses,
/// and each episode is met once, by its key, its file or its title and date.
@Suite(.ownThread) struct FollowStoreContractTests {
    static let start = Date(timeIntervalSince1970: 1_796_000_000.25)

    static func follow(_ url: String, title: String = "Ocean Weekly", due: Date = start.addingTimeInterval(3600)) -> Follow {
        Follow(id: Journal.newID(), url: url, title: title, folder: "Podcasts/\(title)", keep: 2, etag: "\"v1\"",
               lastModified: "Sun, 01 Nov 2026 07:00:00 GMT", created: start, lastCheck: start, lastResult: "1 new episode",
               nextCheck: due, feedInterval: 7200)
    }

    static func episode(_ key: String, _ url: String, _ title: String?, day: Int) -> FollowEpisode {
        FollowEpisode(key: key, url: url, title: title, published: Date(timeIntervalSince1970: 1_793_000_000 + Double(day) * 86_400), downloadID: nil)
    }

    static func queue(_ episode: FollowEpisode) -> MetEpisode {
        MetEpisode(episode, download: URL(string: episode.url), prefix: "2026-11-0\(Int(episode.published?.timeIntervalSince1970 ?? 0) % 7 + 1)")
    }

    /// Every job queued on either side (one journal on SQLite).
    static func jobs(_ a: FollowSide, _ b: FollowSide) throws -> [JournalEntry] {
        let first = try a.journal.entries()
        return a.state.url == b.state.url ? first : first + (try b.journal.entries())
    }

    @Test(arguments: CredentialDriver.available)
    func aFollowIsOneWhereverItWasMadeAndItsURLIsFollowedOnce(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeFollowStores(driver)
        defer { cleanup() }
        let made = Self.follow("https://example.org/ocean.xml")
        let newest = Self.episode("guid:2", "https://cdn.example.org/two.mp3", "Two", day: 2)
        let older = Self.episode("guid:1", "https://cdn.example.org/one.mp3", "One", day: 1)
        #expect(try a.store.addFollow(made, meeting: [Self.queue(newest), MetEpisode(older, download: nil, prefix: nil)], queueingInto: a.journal))
        #expect(try b.store.follows() == [made], "read back whole on the other side")
        #expect(try b.store.follow(named: "ocean weekly")?.id == made.id)
        #expect(try b.store.follow(named: "https://example.org/ocean.xml")?.id == made.id)

        var again = Self.follow("https://example.org/ocean.xml", title: "Another")
        again.created = Self.start.addingTimeInterval(1)
        #expect(try !b.store.addFollow(again, meeting: [Self.queue(older)], queueingInto: b.journal), "a URL is followed once")
        #expect(try a.store.follows().map(\.id) == [made.id])

        // The newest was queued into the making side's journal; the older only noted.
        let job = try #require(try a.journal.entries().first)
        #expect(try Self.jobs(a, b).count == 1)
        #expect(job.folder == made.folder && job.source == newest.url)
        #expect(try b.store.episodes(of: made.id).map(\.key) == ["guid:2", "guid:1"])
        #expect(try b.store.keptEpisodes(of: made.id).map(\.downloadID) == [job.id])
        #expect(try b.store.followPrefix(download: job.id) == Self.queue(newest).prefix)
        #expect(try b.store.followPrefix(download: "no-such-job") == nil)
        try b.store.markEpisodeRemoved("guid:2", of: made.id)
        #expect(try a.store.keptEpisodes(of: made.id).isEmpty)
        #expect(try a.store.episodes(of: made.id).count == 2, "a removed episode stays met")

        // A second follow lists after the first; unfollowing one leaves the other.
        let second = Self.follow("https://example.org/harbour.xml", title: "Harbour Radio")
        var later = second
        later.created = Self.start.addingTimeInterval(60)
        #expect(try b.store.addFollow(later, meeting: [], queueingInto: b.journal))
        #expect(try a.store.follows().map(\.title) == ["Ocean Weekly", "Harbour Radio"])
        try b.store.removeFollow(made.id)
        #expect(try a.store.follows().map(\.title) == ["Harbour Radio"])
        #expect(try a.store.episodes(of: made.id).isEmpty)
    }

    @Test(arguments: CredentialDriver.available)
    func eachEpisodeIsMetOnceByItsKeyItsFileOrItsTitleAndDate(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeFollowStores(driver)
        defer { cleanup() }
        let made = Self.follow("https://example.org/ocean.xml")
        #expect(try a.store.addFollow(made, meeting: [], queueingInto: a.journal))
        let one = Self.episode("guid:1", "https://cdn.example.org/one.mp3", "One", day: 1)
        #expect(try a.store.meet([Self.queue(one)], of: made, queueingInto: a.journal) == 1)

        let moved = Self.episode("guid:1", "https://tracker.example.net/one.mp3", "One", day: 1)
        let sameFile = Self.episode("guid:other", "https://cdn.example.org/one.mp3", "Renamed", day: 5)
        let noGUID = Self.episode("url:https://cdn.example.org/two.mp3", "https://cdn.example.org/two.mp3", "Two", day: 2)
        let twoMoved = Self.episode("url:https://cdn2.example.org/two.mp3", "https://cdn2.example.org/two.mp3", "Two", day: 2)
        let met = try b.store.meet([moved, sameFile, noGUID, twoMoved, noGUID].map(Self.queue), of: made, queueingInto: b.journal)
        #expect(met == 1, "only the episode without a GUID is new; its moved file is known by its title and date")
        #expect(try Self.jobs(a, b).map(\.source).sorted() == ["https://cdn.example.org/one.mp3", "https://cdn.example.org/two.mp3"])

        // Both sides meet one new episode at once: it is queued by one of them.
        let three = Self.episode("guid:3", "https://cdn.example.org/three.mp3", "Three", day: 3)
        let counts = ThreadTally()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let side = index % 2 == 0 ? a : b
            if let store = try? side.store, let journal = try? side.journal, let queued = try? store.meet([Self.queue(three)], of: made, queueingInto: journal) {
                counts.add(queued)
            }
        }
        #expect(counts.total == 1)
        #expect(try Self.jobs(a, b).filter { $0.source == three.url }.count == 1)
        #expect(try a.store.episodes(of: made.id).count == 3)
    }

    @Test(arguments: CredentialDriver.available)
    func aFeedIsClaimedByOneCheckerUntilItsCheckEndsOrItsLeaseLapses(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeFollowStores(driver)
        defer { cleanup() }
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())
        let due = Self.follow("https://example.org/ocean.xml", due: now.addingTimeInterval(-1))
        #expect(try a.store.addFollow(due, meeting: [], queueingInto: a.journal))
        #expect(try b.store.nextFollowCheck() == due.nextCheck)
        var claimed = try a.store.claimDueFollows(now: now, only: nil, lease: 60)
        #expect(claimed.map(\.id) == [due.id])
        #expect(try b.store.claimDueFollows(now: now, only: nil, lease: 60).isEmpty, "claimed: not due for another checker")
        #expect(try b.store.claimDueFollows(now: now, only: [due.id], lease: 60).isEmpty, "nor when asked for by name")
        #expect(try #require(try b.store.nextFollowCheck()) > now.addingTimeInterval(50), "due again when the lease lapses")

        // Finished: due at its next check; asked for by name, claimed at once.
        claimed[0].nextCheck = now.addingTimeInterval(3600)
        claimed[0].lastResult = "Not modified"
        try a.store.finishCheck(claimed[0])
        #expect(try b.store.follows().first?.lastResult == "Not modified")
        #expect(try b.store.claimDueFollows(now: now, only: nil, lease: 60).isEmpty)
        #expect(try b.store.claimDueFollows(now: now, only: [due.id], lease: 60).map(\.id) == [due.id])
        try b.store.finishCheck(claimed[0])

        // Claimed by a checker that then dies (it never finishes): the feed waits for its lease.
        let other = Self.follow("https://example.org/harbour.xml", title: "Harbour Radio", due: now.addingTimeInterval(-1))
        #expect(try a.store.addFollow(other, meeting: [], queueingInto: a.journal))
        #expect(try a.store.claimDueFollows(now: Date(), only: [other.id], lease: 5).map(\.id) == [other.id])
        #expect(try b.store.claimDueFollows(now: Date(), only: [other.id], lease: 60).isEmpty)
        var takenOver: [Follow] = []
        #expect(try eventually(within: 30) {
            takenOver = try b.store.claimDueFollows(now: Date(), only: nil, lease: 60)
            return !takenOver.isEmpty
        })
        #expect(takenOver.map(\.id) == [other.id])

        // Checkers claiming one due feed at once: one of them has it.
        let raced = Self.follow("https://example.org/race.xml", title: "Race", due: now.addingTimeInterval(-1))
        #expect(try a.store.addFollow(raced, meeting: [], queueingInto: a.journal))
        let wins = ThreadTally()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let side = index % 2 == 0 ? a : b
            wins.add((try? side.store.claimDueFollows(now: Date(), only: [raced.id], lease: 60).count) ?? 0)
        }
        #expect(wins.total == 1)
    }

    /// A PostgreSQL row that lacks what a follow needs is an error, never a made-up value.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aMalformedFollowRowIsAnError() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let follows = PostgresFollows(database: try schema.open(connections: 2))
        let state = StateFolder(url: try freshDirectory("follows-malformed"))
        try state.ensure()
        #expect(try follows.addFollow(Self.follow("https://example.org/ocean.xml"), meeting: [], queueingInto: Journal(state: state)))
        let conn = try schema.connect()
        try conn.execute("ALTER TABLE piper_follows ALTER COLUMN next_check DROP NOT NULL")
        try conn.execute("UPDATE piper_follows SET next_check = NULL")
        #expect(throws: StoreError.self) { _ = try follows.follows() }
    }
}

/// A count several threads add to.
final class ThreadTally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add(_ n: Int) { lock.withLock { value += n } }
    var total: Int { lock.withLock { value } }
}
