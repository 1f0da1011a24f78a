import Foundation
import PiperSQLite
import PiperTestSupport
import Testing
@testable import PiperServer

/// A keyed share cut by a server that died is not lost: the built `piper serve` is killed
/// (SIGKILL) while a share of three links runs, one link done and two stalled; restarted on the
/// same store, the retry with the same key (what the web app's worker sends) takes the dead
/// run's claim over once its lease lapsed and shares each link exactly once, without loading
/// again the link the dead run had finished. Before, the claim stayed "running" for ten
/// minutes and the retry waited five of them to get 409.
@Suite(.ownThread, .timeLimit(.minutes(4)))
struct ShareCrashTests {
    @Test func aShareCutByKillNineIsRunOnceByItsRetry() async throws {
        try await cutAndRetry(store: [])
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aShareCutByKillNineIsRunOnceByItsRetryOnPostgreSQL() async throws {
        try await cutAndRetry(store: ["--postgres", try PostgresTestDatabase.url()])
    }

    /// A link that stalls: its answer comes after ten minutes, long after the server is gone.
    static let stalled = TestHTTPServer.Route(body: ShareSite.articleHTML, delay: 600)

    func cutAndRetry(store: [String]) async throws {
        let site = try ShareSite.start(extra: ["/a": .html(ShareSite.articleHTML), "/b": Self.stalled, "/c": Self.stalled])
        let server = try ShareServer(["--allow-host", "127.0.0.1"] + store)
        let links = ["/a", "/b", "/c"].map { site.url($0).absoluteString }
        let key = "crash-" + UUID().uuidString
        var headers = try server.bearer
        headers["Idempotency-Key"] = key
        let share = ["text": "Three for later: " + links.joined(separator: " ")]
        let target = server.url + "/share", body = try JSONSerialization.data(withJSONObject: share)
        let sent = headers.merging(["Content-Type": "application/json"]) { $1 }
        let cut = Task { try? await Client.send("POST", target, body: body, headers: sent) }
        defer { cut.cancel() }

        // The first run: /a shared and noted on its key, /b and /c loading.
        var done = ""
        let running = try await eventually(within: 60) {
            done = try doneItems(key: key, server: server, store: store) ?? ""
            return try site.requests("/b").count == 1 && site.requests("/c").count == 1 && done.hasPrefix("0=")
        }
        try #require(running, "the first run did not reach /b and /c with /a done: '\(done)'")
        server.crash()
        let loadsOfA = try site.requests("/a").count

        // Restarted on the same store, the links answer at once; the retry runs the share once.
        try site.setRoute("/b", .html(ShareSite.articleHTML))
        try site.setRoute("/c", .html(ShareSite.articleHTML))
        try server.startServing(port: 0)
        let retry = try await server.shareJSON(share, headers: headers)
        #expect(retry.status == 200, "\(retry.text)")
        let answered = try retry.json()["shares"] as? [[String: Any]] ?? []
        #expect(answered.map { $0["source"] as? String ?? "" } == links, "\(answered)")
        #expect(answered.allSatisfy { $0["status"] as? String == "saved" }, "\(answered)")
        #expect(answered.first?["id"] as? String == String(done.dropFirst(2)), "the dead run's /a is the answer's, not a second save")
        for link in links {
            #expect(try await ShareOfflineTests.records(server, source: link, headers: try server.bearer).count == 1, "\(link) shared exactly once")
        }
        #expect(try site.requests("/a").count == loadsOfA, "/a, done before the crash, is not loaded again")
        #expect(try site.requests("/b").count > 1 && site.requests("/c").count > 1, "/b and /c are loaded again")

        // Another retry gets the same answer.
        let again = try await server.shareJSON(share, headers: headers)
        #expect((try again.json()["shares"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                == answered.compactMap { $0["id"] as? String })
    }

    /// The items the run holding `key` noted done, read from the server's store.
    func doneItems(key: String, server: ShareServer, store: [String]) throws -> String? {
        if let url = store.last, store.first == "--postgres" {
            let connection = try PostgresConnection(url: url)
            return try connection.execute("SELECT done FROM piper_share_keys WHERE key = $1", [key]).first?.optionalText("done")
        }
        let path = server.home.appendingPathComponent("piper-serve.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let database = try DatabaseQueue(path: path, readOnly: true)
        return try database.read { try $0.query("SELECT done FROM share_keys WHERE key = ?", [.text(key)]) { $0.optionalText(0) } }.first ?? nil
    }
}
