import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// Following a show through `piper serve`: the token API's `{"url": FEED, "follow": true}` on
/// `/share`, `POST /follows` and `GET /follows`, against a real server and a local feed (opened
/// to the server's fetch guard with --allow-host), down to the episode landing in the library
/// through the server's own agent.
@Suite(.ownThread, .timeLimit(.minutes(3))) struct FollowRouteTests {
    @Test func theTokenAPIFollowsAShowAndTheServersAgentDownloadsIt() async throws {
        let feed = """
            <rss version="2.0"><channel><title>Harbour Radio</title>
            <item><title>Tide</title><guid>tide-1</guid><pubDate>Sun, 08 Nov 2026 07:00:00 GMT</pubDate><enclosure url="/sample.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let site = try TestHTTPServer(routes: ["/feed.xml": .init(headers: ["Content-Type": "application/rss+xml"], body: feed),
                                               "/plain": .html("<html><body><p>No feed.</p></body></html>")],
                                      staticRoot: PiperTestSupport.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL)
        defer { site.stop() }
        let server = try ShareServer(["--allow-host", "localhost"])
        let feedURL = "http://localhost:\(site.port)/feed.xml"
        var request = try server.bearer
        request["Content-Type"] = "application/json"
        let followed = try await Client.send("POST", server.url + "/share",
                                             body: try JSONSerialization.data(withJSONObject: ["url": feedURL, "follow": true]), headers: request)
        #expect(followed.status == 200, "\(followed.text)")
        let object = try followed.json()
        #expect(object["status"] as? String == "following")
        #expect(object["message"] as? String == "Following Harbour Radio: 1 episode downloading now into Harbour Radio.")
        let landed = eventually(within: 60) {
            FileManager.default.fileExists(atPath: server.state.library.appendingPathComponent("Harbour Radio/2026-11-08 sample.mp3").path)
        }
        #expect(landed, "the server's agent downloaded the episode")

        let again = try await Client.send("POST", server.url + "/follows", body: try JSONSerialization.data(withJSONObject: ["url": feedURL]),
                                          headers: request)
        #expect(again.status == 409)
        #expect(try again.json()["error"] as? String == "Already following Harbour Radio (see 'piper follows')")
        let notAFeed = try await Client.send("POST", server.url + "/follows",
                                             body: try JSONSerialization.data(withJSONObject: ["url": "http://localhost:\(site.port)/plain"]), headers: request)
        #expect(notAFeed.status == 422)

        let listed = try await Client.send("GET", server.url + "/follows", headers: try server.bearer)
        let follows = try #require(try listed.json()["follows"] as? [[String: Any]])
        #expect(follows.map { $0["title"] as? String } == ["Harbour Radio"])
        #expect(follows.first?["lastResult"] as? String == "1 new episode")
        let page = try await Client.send("GET", server.url + "/follows", headers: ["Authorization": try server.bearer["Authorization"] ?? "", "Accept": "text/html"])
        #expect(page.text.contains("<strong>Harbour Radio</strong>, 1 episode in Harbour Radio"), "\(page.text)")
    }

    /// The home page lists the followed shows with their state; a feed whose check failed says
    /// why in plain words (`FailureMessage`), not the bare status line.
    @Test func theHomePageShowsAFollowedShowsStateAndWhyItsFeedFails() async throws {
        let feed = """
            <rss version="2.0"><channel><title>Harbour Radio</title>
            <item><title>Tide</title><guid>tide-1</guid><pubDate>Sun, 08 Nov 2026 07:00:00 GMT</pubDate><enclosure url="/sample.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let site = try TestHTTPServer(routes: ["/feed.xml": .init(headers: ["Content-Type": "application/rss+xml"], body: feed)],
                                      staticRoot: PiperTestSupport.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL)
        defer { site.stop() }
        let server = try ShareServer(["--allow-host", "localhost"])
        let html = ["Authorization": try server.bearer["Authorization"] ?? "", "Accept": "text/html"]
        let none = try await Client.send("GET", server.url + "/", headers: html)
        #expect(none.text.contains("id=\"followed-none\""), "\(none.text)")
        var headers = try server.bearer
        headers["Content-Type"] = "application/json"
        let followed = try await Client.send("POST", server.url + "/follows",
                                             body: try JSONSerialization.data(withJSONObject: ["url": "http://localhost:\(site.port)/feed.xml"]), headers: headers)
        #expect(followed.status == 200, "\(followed.text)")
        let home = try await Client.send("GET", server.url + "/", headers: html)
        #expect(home.text.contains("<strong>Harbour Radio</strong>, 1 episode in Harbour Radio"), "\(home.text)")
        #expect(home.text.contains(": 1 new episode; next check <time"), "\(home.text)")

        // The feed fails; `piper follows refresh` on the server's state folder checks it now.
        try site.setRoute("/feed.xml", .init(status: 503, body: "down for maintenance"))
        let refreshed = try PiperBinaryRun.piper(["follows", "refresh"], home: server.home)
        #expect(refreshed.status == 69, "a failed check exits 69: \(refreshed.stderr)")
        let listed = try await Client.send("GET", server.url + "/follows", headers: try server.bearer)
        let show = try #require((try listed.json()["follows"] as? [[String: Any]])?.first)
        let lastResult = try #require(show["lastResult"] as? String)
        #expect(lastResult.hasPrefix("HTTP 503"))
        let problem = FailureMessage(lastResult, url: "http://localhost:\(site.port)/feed.xml").sentence
        #expect(show["problem"] as? String == problem)
        #expect(problem == "localhost is having trouble (HTTP 503); try again later")
        let failing = try await Client.send("GET", server.url + "/", headers: html)
        #expect(failing.text.contains("<span class=\"error\">\(problem)</span>; next check"), "\(failing.text)")
    }
}
