import Foundation
import MediaImport
import PiperTestSupport
import Testing
@testable import PiperServer

/// Followed shows across real `piper serve --postgres` processes on one database (a schema of
/// their own) and one library folder both mount (`--library`), as servers on one database do: a follow made through one server is listed and shown by the other, its episode
/// downloaded by the server that found it; a server killed (SIGKILL) while it checks a feed
/// holds that feed only until its lease lapses, and then another server checks it.
@Suite(.ownThread, .timeLimit(.minutes(4)), .enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
struct FollowScaleOutTests {
    static let media = PiperTestSupport.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

    /// A feed of Harbour Radio with `items` (title, guid, day of November, the fixture file).
    static func feed(_ items: [(String, String, Int, String)], delay: Double = 0) -> TestHTTPServer.Route {
        let body = items.map { title, guid, day, file in
            "<item><title>\(title)</title><guid>\(guid)</guid><pubDate>Sun, \(String(format: "%02d", day)) Nov 2026 07:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(file)\" type=\"audio/mpeg\"/></item>"
        }.joined()
        var route = TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml"],
                                         body: "<rss version=\"2.0\"><channel><title>Harbour Radio</title>\(body)</channel></rss>")
        route.delay = delay
        return route
    }

    static let tide = ("Tide", "tide-1", 8, "sample.mp3")
    static let swell = ("Swell", "swell-2", 15, "sample.ogg")

    static func follow(_ feedURL: String, on server: ShareServer) async throws -> Reply {
        var headers = try server.bearer
        headers["Content-Type"] = "application/json"
        return try await Client.send("POST", server.url + "/follows", body: try JSONSerialization.data(withJSONObject: ["url": feedURL]), headers: headers)
    }

    @Test func aFollowMadeThroughOneServerIsListedAndShownByTheOther() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let site = try TestHTTPServer(routes: ["/feed.xml": Self.feed([Self.tide])], staticRoot: Self.media)
        defer { site.stop() }
        let library = try freshDirectory("shared-library")
        let a = try ShareServer(["--allow-host", "localhost", "--postgres", schema.url, "--library", library.path])
        let b = try ShareServer(["--allow-host", "localhost", "--postgres", schema.url, "--library", library.path])
        let followed = try await Self.follow("http://localhost:\(site.port)/feed.xml", on: a)
        #expect(followed.status == 200, "\(followed.text)")

        let listed = try await Client.send("GET", b.url + "/follows", headers: try b.bearer)
        let follows = try #require(try listed.json()["follows"] as? [[String: Any]], "\(listed.text)")
        #expect(follows.map { $0["title"] as? String } == ["Harbour Radio"])
        #expect(follows.first?["lastResult"] as? String == "1 new episode")
        #expect(follows.first?["episodes"] as? Int == 1)
        #expect(follows.first?["problem"] is NSNull)

        // B's home page lists the show with its state.
        let home = try await Client.send("GET", b.url + "/", headers: ["Authorization": try b.bearer["Authorization"] ?? "", "Accept": "text/html"])
        #expect(home.status == 200)
        #expect(home.text.contains("<strong>Harbour Radio</strong>, 1 episode in Harbour Radio"), "\(home.text)")
        #expect(home.text.contains(": 1 new episode; next check <time"), "\(home.text)")

        // The episode is A's to download (A's check queued it), into the one library.
        let file = library.appendingPathComponent("Harbour Radio/2026-11-08 sample.mp3").path
        #expect(eventually(within: 60) { FileManager.default.fileExists(atPath: file) }, "A's agent downloaded the episode")
        #expect(try Journal(state: a.state).entries().count == 1, "A's journal holds the download")
        #expect(try Journal(state: b.state).entries().isEmpty, "B's journal holds nothing")
        #expect(try site.requests("/sample.mp3").filter { $0.method == "GET" }.count == 1)
    }

    @Test func aServerKilledWhileCheckingHoldsTheFeedUntilItsLeaseLapses() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let site = try TestHTTPServer(routes: ["/feed.xml": Self.feed([Self.tide])], staticRoot: Self.media)
        defer { site.stop() }
        let environment = ["PIPER_AGENT_FOLLOW_LEASE_SECONDS": "3", "PIPER_AGENT_IDLE_MS": "200"]
        let library = try freshDirectory("shared-library")
        let a = try ShareServer(["--allow-host", "localhost", "--postgres", schema.url, "--library", library.path], environment: environment)
        #expect(try await Self.follow("http://localhost:\(site.port)/feed.xml", on: a).status == 200)
        #expect(eventually(within: 60) {
            FileManager.default.fileExists(atPath: library.appendingPathComponent("Harbour Radio/2026-11-08 sample.mp3").path)
        })

        // A new episode, behind a feed that does not answer; the follow made due: A's agent checks it.
        try site.setRoute("/feed.xml", Self.feed([Self.swell, Self.tide], delay: 120))
        try schema.connect().execute("UPDATE piper_follows SET next_check = 0")
        #expect(eventually(within: 30) { ((try? site.requests("/feed.xml")) ?? []).count >= 2 }, "A is checking the feed")
        let owner = try schema.connect().execute("SELECT lease_owner FROM piper_follows").onlyRow().optionalText("lease_owner")
        #expect(owner != nil, "A's check holds the feed's lease")
        a.crash()

        // B starts with the feed answering again: it waits out A's lease, then checks and downloads.
        try site.setRoute("/feed.xml", Self.feed([Self.swell, Self.tide]))
        let b = try ShareServer(["--allow-host", "localhost", "--postgres", schema.url, "--library", library.path], environment: environment)
        let bFile = library.appendingPathComponent("Harbour Radio/2026-11-15 sample.ogg").path
        #expect(eventually(within: 60) { FileManager.default.fileExists(atPath: bFile) }, "B took the feed over once A's lease lapsed")
        #expect(try site.requests("/sample.ogg").filter { $0.method == "GET" }.count == 1)
        #expect(try site.requests("/sample.mp3").filter { $0.method == "GET" }.count == 1, "the first episode is not downloaded again")
        #expect(try schema.connect().execute("SELECT count(*) AS n FROM piper_follow_episodes").onlyRow().int64("n") == 2)
    }
}
