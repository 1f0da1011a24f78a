import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

/// Followed feeds against a local feed server whose feed changes between checks: new items,
/// a rewritten enclosure URL under the same GUID, 304s, a 301, `itunes:new-feed-url`, a 410,
/// malformed XML, a failing server, items without GUIDs, `--keep`, and a feed of 5,000 items.
/// Downloads run through the real agent and importer into a real library.
@Suite(.ownThread) struct FollowTests {
    struct Item {
        var guid: String?
        var path: String
        var title: String
        var date: String
    }

    static func feed(_ items: [Item], title: String = "Ocean Weekly", head: String = "") -> String {
        let body = items.map { item in
            "<item><title>\(item.title)</title>" + (item.guid.map { "<guid isPermaLink=\"false\">\($0)</guid>" } ?? "")
                + "<pubDate>\(item.date)</pubDate><enclosure url=\"\(item.path)\" type=\"audio/mpeg\" length=\"1\"/></item>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>\(title)</title>\(head)
            \(body)
            </channel></rss>
            """
    }

    static func route(_ feed: String, etag: String) -> TestHTTPServer.Route {
        var route = TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml", "ETag": etag], body: feed)
        route.conditional = true
        return route
    }

    let one = Item(guid: "ep-1", path: "/files/one.mp3", title: "One", date: "Sun, 01 Nov 2026 07:00:00 GMT")
    let two = Item(guid: "ep-2", path: "/files/two.mp3", title: "Two", date: "Sun, 08 Nov 2026 07:00:00 GMT")
    let three = Item(guid: "ep-3", path: "/files/three.mp3", title: "Three", date: "Sun, 15 Nov 2026 07:00:00 GMT")
    let four = Item(guid: "ep-4", path: "/files/four.mp3", title: "Four", date: "Sun, 22 Nov 2026 07:00:00 GMT")

    func server() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        for (name, fixture) in [("one", "sample.mp3"), ("two", "sample.m4a"), ("three", "sample.flac"), ("four", "sample.ogg")] {
            try server.route("/files/\(name).mp3", .init(body: try Fixtures.bytes(fixture)))
        }
        return server
    }

    func drain(_ home: TempHome) throws {
        _ = try Agent(state: home.state, settings: FastSettings.agent, importer: try LibraryImporter(state: home.state)).run(once: true)
    }

    @Test func theNewestNowThenEachNewEpisodeOnceWhateverItsURLBecomes() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        try server.setRoute("/feed.xml", Self.route(Self.feed([three, two, one]), etag: "\"v1\""))
        let refresher = FollowRefresher(state: home.state)
        let started = try refresher.start(url: server.url("/feed.xml"), into: "Podcasts", keep: nil, newest: 2)
        #expect(started.queued == 2)
        #expect(started.follow.folder == "Podcasts/Ocean Weekly")
        #expect(started.follow.lastResult == "2 new episodes")
        try drain(home)
        #expect(home.libraryFiles() == ["Podcasts/Ocean Weekly/2026-11-08 two.m4a", "Podcasts/Ocean Weekly/2026-11-15 three.flac"])

        // Not due yet: nothing is checked.
        #expect(try refresher.refreshDue().isEmpty)
        // Unchanged: a conditional GET answered 304.
        let unchanged = try #require(try refresher.refreshDue(only: [started.follow.id]).first)
        #expect(unchanged.follow.lastResult == "Not modified")
        #expect(try server.requests("/feed.xml").last?.header("If-None-Match") == "\"v1\"")

        // A new episode, and episode two's file moved behind a tracking prefix under the same GUID.
        var moved = two
        moved.path = "/files/one.mp3?via=tracker"
        try server.setRoute("/feed.xml", Self.route(Self.feed([four, three, moved, one]), etag: "\"v2\""))
        let changed = try #require(try refresher.refreshDue(only: [started.follow.id]).first)
        #expect(changed.queued == 1, "only episode four is new")
        #expect(changed.follow.lastResult == "1 new episode")
        try drain(home)
        #expect(home.libraryFiles().contains("Podcasts/Ocean Weekly/2026-11-22 four.ogg"), "\(home.libraryFiles())")
        #expect(try server.requests("/files/two.mp3").count == 1)
        #expect(try server.requests("/files/one.mp3").isEmpty, "neither the old episode one nor the moved two is fetched")

        // Removed from the library by hand, an episode is not fetched again.
        try LibraryImporter(state: home.state).remove("Podcasts/Ocean Weekly/2026-11-22 four.ogg")
        try server.setRoute("/feed.xml", Self.route(Self.feed([four, three, moved, one]), etag: "\"v3\""))
        #expect(try refresher.refreshDue(only: [started.follow.id]).first?.queued == 0)
        #expect(try server.requests("/files/four.mp3").count == 1)
    }

    @Test func aPermanentRedirectMovesTheFollowAndA410StopsIt() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        try server.setRoute("/old.xml", Self.route(Self.feed([one]), etag: "\"a\""))
        let refresher = FollowRefresher(state: home.state)
        let id = try refresher.start(url: server.url("/old.xml"), into: nil, keep: nil, newest: 0).follow.id
        try server.setRoute("/old.xml", TestHTTPServer.Route(status: 301, headers: ["Location": "/new.xml"], body: ""))
        try server.setRoute("/new.xml", Self.route(Self.feed([two, one]), etag: "\"b\""))
        let moved = try #require(try refresher.refreshDue(only: [id]).first)
        #expect(moved.follow.url == server.url("/new.xml").absoluteString)
        #expect(moved.queued == 1)

        // A temporary redirect does not move it.
        try server.setRoute("/new.xml", TestHTTPServer.Route(status: 302, headers: ["Location": "/elsewhere.xml"], body: ""))
        try server.setRoute("/elsewhere.xml", Self.route(Self.feed([two, one]), etag: "\"c\""))
        #expect(try refresher.refreshDue(only: [id]).first?.follow.url == server.url("/new.xml").absoluteString)

        try server.setRoute("/new.xml", TestHTTPServer.Route(status: 410, body: "gone"))
        let gone = try #require(try refresher.refreshDue(only: [id]).first)
        #expect(gone.follow.stopped == "The feed is gone (HTTP 410 Gone); no longer checked")
        #expect(try refresher.refreshDue(only: [id]).isEmpty, "a stopped follow is not checked again")
        #expect(try Journal(state: home.state).nextFollowCheck() == nil)
    }

    @Test func itunesNewFeedURLMovesTheFollow() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        let newHome = server.url("/moved.xml").absoluteString
        try server.setRoute("/feed.xml", Self.route(Self.feed([one], head: "<itunes:new-feed-url>\(newHome)</itunes:new-feed-url>"), etag: "\"a\""))
        let started = try FollowRefresher(state: home.state).start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 1)
        #expect(started.follow.url == newHome)
    }

    @Test func aFailingOrMalformedFeedBacksOffAndSaysWhy() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        try server.setRoute("/feed.xml", Self.route(Self.feed([one]), etag: "\"a\""))
        var refresher = FollowRefresher(state: home.state)
        refresher.random = { 0.5 }
        let id = try refresher.start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 1).follow.id
        try server.setRoute("/feed.xml", TestHTTPServer.Route(status: 503, headers: ["Retry-After": "7200"], body: "busy"))
        let before = Date()
        let failed = try #require(try refresher.refreshDue(only: [id]).first)
        #expect(failed.follow.lastResult == "HTTP 503 Service Unavailable")
        #expect(failed.follow.failures == 1)
        #expect(failed.follow.nextCheck >= before.addingTimeInterval(7200), "Retry-After is honoured")

        try server.setRoute("/feed.xml", TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml"], body: "<rss><channel><title>Broken"))
        let malformed = try #require(try refresher.refreshDue(only: [id]).first)
        #expect(malformed.follow.lastResult == "The feed could not be read as RSS or Atom")
        #expect(malformed.follow.failures == 2)

        try server.setRoute("/feed.xml", Self.route(Self.feed([one]), etag: "\"a\""))
        let recovered = try #require(try refresher.refreshDue(only: [id]).first)
        #expect(recovered.follow.failures == 0)
        #expect(recovered.follow.nextCheck > Date().addingTimeInterval(3000))
    }

    @Test func itemsWithoutGUIDsAreKnownByTheirFileThenByTitleAndDate() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        var a = one, b = two
        a.guid = nil
        b.guid = nil
        try server.setRoute("/feed.xml", Self.route(Self.feed([b, a]), etag: "\"a\""))
        let refresher = FollowRefresher(state: home.state)
        let id = try refresher.start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 2).follow.id
        // The same items, one's file moved (its title and date unchanged): nothing new.
        var movedA = a
        movedA.path = "/files/three.mp3"
        try server.setRoute("/feed.xml", Self.route(Self.feed([b, movedA]), etag: "\"b\""))
        #expect(try refresher.refreshDue(only: [id]).first?.queued == 0)
        #expect(try Journal(state: home.state).episodes(of: id).count == 2)
    }

    @Test func keepRemovesOnlyThisFollowsOlderDownloads() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        // Something else already in the show's folder, shared by hand: never removed.
        try server.route("/other.wav", .init(body: try Fixtures.bytes("sample.wav"), contentType: "audio/wav"))
        try server.setRoute("/feed.xml", Self.route(Self.feed([two, one]), etag: "\"a\""))
        let refresher = FollowRefresher(state: home.state)
        let id = try refresher.start(url: server.url("/feed.xml"), into: nil, keep: 2, newest: 2).follow.id
        _ = try Journal(state: home.state).add(url: server.url("/other.wav").absoluteString, source: server.url("/other.wav").absoluteString,
                                               kind: .url, folder: "Ocean Weekly")
        try drain(home)
        #expect(home.libraryFiles().count == 3)
        try server.setRoute("/feed.xml", Self.route(Self.feed([three, two, one]), etag: "\"b\""))
        #expect(try refresher.refreshDue(only: [id]).first?.queued == 1)
        try drain(home)
        // The next check applies --keep 2 to what has landed: episode one goes.
        try server.setRoute("/feed.xml", Self.route(Self.feed([three, two, one]), etag: "\"c\""))
        #expect(try refresher.refreshDue(only: [id]).first?.removed == 1)
        #expect(home.libraryFiles() == ["Ocean Weekly/2026-11-08 two.m4a", "Ocean Weekly/2026-11-15 three.flac", "Ocean Weekly/other.wav"])
    }

    @Test func aFeedOfFiveThousandItemsIsNotedOnceAndQueuesOnlyTheNewest() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        let items = (1...5000).reversed().map { n in
            Item(guid: "big-\(n)", path: "/files/big-\(n).mp3", title: "Episode \(n)", date: "Sun, 01 Nov 2026 07:00:00 GMT")
        }
        try server.setRoute("/big.xml", Self.route(Self.feed(items, title: "Big Show"), etag: "\"a\""))
        let refresher = FollowRefresher(state: home.state)
        let started = try refresher.start(url: server.url("/big.xml"), into: nil, keep: nil, newest: 1)
        #expect(started.queued == 1)
        #expect(try Journal(state: home.state).episodes(of: started.follow.id).count == 5000)
        #expect(try Journal(state: home.state).entries().map(\.url) == [server.url("/files/big-5000.mp3").absoluteString])
        try server.setRoute("/big.xml", Self.route(Self.feed(items, title: "Big Show"), etag: "\"b\""))
        #expect(try refresher.refreshDue(only: [started.follow.id]).first?.queued == 0)
    }

    @Test func aPageThatLinksItsFeedIsFollowedThroughIt() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        try server.setRoute("/feed.xml", Self.route(Self.feed([one]), etag: "\"a\""))
        try server.setRoute("/show", .html("<html><head><title>Ocean Weekly</title><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head><body><p>Our show.</p></body></html>"))
        let started = try FollowRefresher(state: home.state).start(url: server.url("/show"), into: nil, keep: nil, newest: 1)
        #expect(started.follow.url == server.url("/feed.xml").absoluteString)
        #expect(throws: FollowRefresher.StartError.alreadyFollowed("Ocean Weekly")) {
            try FollowRefresher(state: home.state).start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 1)
        }
        try server.setRoute("/plain", .html("<html><body><p>No feed here.</p></body></html>"))
        #expect(throws: FollowRefresher.StartError.noFeed(server.url("/plain").absoluteString)) {
            try FollowRefresher(state: home.state).start(url: server.url("/plain"), into: nil, keep: nil, newest: 1)
        }
    }

    /// The long-running agent checks a due follow by itself and downloads what it queued.
    @Test func theAgentChecksADueFollowOnItsOwn() throws {
        let home = try TempHome()
        let server = try server()
        defer { server.stop() }
        try server.setRoute("/feed.xml", Self.route(Self.feed([one]), etag: "\"a\""))
        let refresher = FollowRefresher(state: home.state)
        let follow = try refresher.start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 0).follow
        try server.setRoute("/feed.xml", Self.route(Self.feed([two, one]), etag: "\"b\""))
        var due = follow
        due.nextCheck = Date().addingTimeInterval(-1)
        try Journal(state: home.state).finishCheck(due)
        let agent = try startPiper(["agent"], environment: home.environment())
        defer { killHard(agent) }
        let landed = eventually(within: 60) { home.libraryFiles() == ["Ocean Weekly/2026-11-08 two.m4a"] }
        #expect(landed, "\(home.libraryFiles())")
        #expect(try Journal(state: home.state).follows().first?.lastResult == "1 new episode")
    }
}
