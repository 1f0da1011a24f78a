import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// Two refreshers, each with its own handle on one follow store and its own journal (two
/// servers on one PostgreSQL; on SQLite, two processes of one machine), checking the same
/// followed feed at the same moment, against a local feed server whose feed gains an episode
/// before each round: the feed is fetched once a round, and each new episode is queued once.
@Suite(.ownThread) struct FollowSharedRefreshTests {
    /// A feed of `count` episodes, newest first (each one's enclosure a path on the feed's server).
    static func feed(_ count: Int) -> String {
        let items = (1...count).reversed().map { n in
            "<item><title>Episode \(n)</title><guid>ep-\(n)</guid><pubDate>\(String(format: "%02d", n)) Nov 2026 07:00:00 GMT</pubDate>"
                + "<enclosure url=\"/files/\(n).mp3\" type=\"audio/mpeg\" length=\"1\"/></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Ocean Weekly</title>\(items)</channel></rss>"
    }

    @Test(arguments: CredentialDriver.available)
    func twoRefreshersAtOnceFetchTheFeedOnceAndQueueEachEpisodeOnce(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeFollowStores(driver)
        defer { cleanup() }
        let site = try TestHTTPServer()
        defer { site.stop() }
        // Slow enough that the second refresher asks while the first is still fetching.
        var route = TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml"], body: Self.feed(1))
        route.delay = 0.3
        try site.setRoute("/feed.xml", route)
        let started = try a.refresher().start(url: site.url("/feed.xml"), into: nil, keep: nil, newest: nil)
        #expect(started.queued == 1)
        for episodes in 2...4 {
            route.body = Self.feed(episodes)
            try site.setRoute("/feed.xml", route)
            let fetched = try site.requests("/feed.xml").count
            let checks = Checks()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let side = index == 0 ? a : b
                checks.add((try? side.refresher().refreshDue(only: [started.follow.id])) ?? [])
            }
            #expect(try site.requests("/feed.xml").count == fetched + 1, "round \(episodes): one of the two fetched the feed")
            #expect(checks.all.map(\.queued) == [1], "round \(episodes): the new episode was queued once")
        }
        let jobs = try FollowStoreContractTests.jobs(a, b)
        #expect(jobs.map(\.source).sorted() == (1...4).map { site.url("/files/\($0).mp3").absoluteString }.sorted())
        #expect(try b.store.episodes(of: started.follow.id).count == 4)
        #expect(try a.store.follows().first?.lastResult == "1 new episode")
    }
}

/// The checks finished by several threads.
final class Checks: @unchecked Sendable {
    private let lock = NSLock()
    private var checks: [FollowRefresher.Check] = []
    func add(_ more: [FollowRefresher.Check]) { lock.withLock { checks += more } }
    var all: [FollowRefresher.Check] { lock.withLock { checks } }
}
