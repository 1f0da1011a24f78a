import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

/// `piper agent` killed (SIGKILL) while it checks a followed feed, and while it downloads an
/// episode a check queued: the next agent finishes the work, nothing is lost and nothing is
/// downloaded twice.
@Suite(.ownThread) struct FollowCrashTests {
    typealias Item = FollowTests.Item
    let one = Item(guid: "ep-1", path: "/files/one.mp3", title: "One", date: "Sun, 01 Nov 2026 07:00:00 GMT")
    let two = Item(guid: "ep-2", path: "/files/two.wav", title: "Two", date: "Sun, 08 Nov 2026 07:00:00 GMT")

    /// A follow of `server`'s feed (holding `one`), made due now with `two` added.
    func dueFollow(_ home: TempHome, _ server: TestHTTPServer, feed: TestHTTPServer.Route) throws {
        try server.setRoute("/feed.xml", FollowTests.route(FollowTests.feed([one]), etag: "\"a\""))
        var follow = try FollowRefresher(state: home.state).start(url: server.url("/feed.xml"), into: nil, keep: nil, newest: 0).follow
        try server.setRoute("/feed.xml", feed)
        follow.nextCheck = Date().addingTimeInterval(-1)
        try Journal(state: home.state).finishCheck(follow)
    }

    @Test func killedWhileCheckingTheNextAgentChecksAgainAtOnce() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        defer { server.stop() }
        try server.route("/files/two.wav", .init(body: try Fixtures.bytes("sample.wav"), contentType: "audio/wav"))
        var slow = FollowTests.route(FollowTests.feed([two, one]), etag: "\"b\"")
        slow.delay = 60
        try dueFollow(home, server, feed: slow)
        let first = try startPiper(["agent"], environment: home.environment())
        #expect(eventually(within: 30) { ((try? server.requests("/feed.xml")) ?? []).count >= 2 }, "the agent is checking the feed")
        killHard(first)
        try server.setRoute("/feed.xml", FollowTests.route(FollowTests.feed([two, one]), etag: "\"b\""))
        let second = try startPiper(["agent"], environment: home.environment())
        defer { killHard(second) }
        let landed = eventually(within: 60) { home.libraryFiles() == ["Ocean Weekly/2026-11-08 two.wav"] }
        #expect(landed, "the claim of the killed agent did not hold the feed: \(home.libraryFiles())")
        #expect(try server.requests("/files/two.wav").filter { $0.method == "GET" }.count == 1)
        #expect(try Journal(state: home.state).entries().count == 1)
    }

    @Test func killedWhileDownloadingAnEpisodeTheNextAgentResumesIt() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        defer { server.stop() }
        try server.route("/files/two.wav", .init(body: try Fixtures.bytes("sample.wav"), contentType: "audio/wav"),
                         faults: [.drip(chunk: 4096, interval: 0.05)])
        try dueFollow(home, server, feed: FollowTests.route(FollowTests.feed([two, one]), etag: "\"b\""))
        let first = try startPiper(["agent"], environment: home.environment())
        let journal = try Journal(state: home.state)
        let started = eventually(within: 30) { ((try? journal.entries()) ?? []).first.map { $0.bytes > 32_768 } ?? false }
        #expect(started, "the episode is downloading")
        killHard(first)
        let second = try startPiper(["agent"], environment: home.environment())
        defer { killHard(second) }
        let landed = eventually(within: 60) { home.libraryFiles() == ["Ocean Weekly/2026-11-08 two.wav"] }
        #expect(landed, "\(home.libraryFiles())")
        let copy = home.state.library.appendingPathComponent("Ocean Weekly/2026-11-08 two.wav")
        #expect(try Fixtures.sha256(copy) == Fixtures.sha256(Fixtures.media("sample.wav")), "the whole file, once")
        let gets = try server.requests("/files/two.wav").filter { $0.method == "GET" }
        #expect(gets.count == 2)
        #expect(gets.last?.header("Range")?.hasPrefix("bytes=") == true, "the second agent resumed rather than starting over")
        #expect(try journal.entries().count == 1, "the episode was queued once")
        #expect(try journal.follows().first?.lastResult == "1 new episode")
    }
}
