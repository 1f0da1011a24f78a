import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The recent shares outlive the server: a real `piper serve` restarted on the same state folder
/// lists the article it saved, the media job with its journal state and the failure, in order.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareHistoryTests {
    /// The shares `headers` may see: the share token's own by default.
    static func shares(_ server: ShareServer, headers: [String: String]? = nil) async throws -> [[String: Any]] {
        let reply = try await Client.send("GET", server.url + "/api/shares", headers: try headers ?? server.bearer)
        try #require(reply.status == 200, "\(reply.text)")
        return try reply.json()["shares"] as? [[String: Any]] ?? []
    }

    @Test func theHomePageStillShowsTheSharesAfterARestart() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let article = try await server.shareJSON(["url": site.url("/article").absoluteString], headers: try server.bearer)
        #expect(article.status == 200, "\(article.text)")
        let readerURL = try #require(try article.json()["url"] as? String)
        let file = try ShareUploadTests.wav(bytes: 64 << 10, in: server.home)
        let upload = try ShareUploadTests.curl(server, ["file=@\(file.path);type=audio/wav"],
                                               headers: ["Authorization: Bearer \(try server.token())", "Accept: application/json"])
        #expect(upload.status == 202, "\(upload.body)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(upload.body.utf8)) as? [String: Any])["job"] as? String
        #expect(try await ShareRouteTests.waitForJob(try #require(job), server: server).hasPrefix("imported as "))
        let failed = try await server.shareJSON(["text": "nothing to see"], headers: try server.bearer)
        #expect(failed.status == 400)
        let before = try await Self.shares(server)
        #expect(before.count == 3)

        try server.restart()
        let after = try await Self.shares(server)
        #expect(after.map { $0["id"] as? String } == before.map { $0["id"] as? String }, "the same shares, newest first")
        #expect(after.map { $0["status"] as? String } == ["failed", "imported", "saved"], "a media share's status follows its job")
        #expect(after[0]["state"] as? String == "failed: No URL found in share input")
        #expect((after[1]["state"] as? String)?.hasPrefix("imported as ") == true, "\(after[1])")
        #expect(after[1]["job"] as? String == job)
        let saved = try #require(after[2]["state"] as? String)
        #expect(saved.hasPrefix("saved: \(readerURL), until "), "\(saved)")
        // The article itself is in the store the new process opened.
        let id = try #require(URL(string: readerURL)?.lastPathComponent)
        #expect(try await Client.get("\(server.url)/\(id)").text.contains("Readability keeps it as the body"))
        let home = try await Client.send("GET", server.url + "/", headers: ["Authorization": "Bearer \(try server.token())", "Accept": "text/html"])
        #expect(home.text.contains("A shared article") && home.text.contains("No URL found in share input"))
        #expect(!FileManager.default.fileExists(atPath: server.home.appendingPathComponent("recent-shares.json").path),
                "the shares are in the store, not in a file")
    }

    /// What an older Piper kept in files (`recent-shares.json`, `share-keys.json`, `feed-secret`)
    /// moves into the store when the server starts: the home page lists the shares, a retry
    /// under a kept key is still recognized, the old feed URL still works, and each file is
    /// renamed `….migrated`.
    @Test func theFormerFilesMoveIntoTheStore() async throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let secret = String(repeating: "ab", count: 32)
        let server = try ShareServer(["--allow-host", "127.0.0.1"]) { home in
            let records = [
                ShareRecord(id: "former2", created: created.addingTimeInterval(60), device: "phone", source: "https://example.org/b",
                            status: .failed, message: "m2", error: "The site answered 404", httpStatus: 502),
                ShareRecord(id: "former1", created: created, device: "phone", source: "https://example.org/a",
                            status: .saved, url: "https://piper.example/x", title: "An older share", message: "m1", httpStatus: 200),
            ]
            let keys = [ShareKeyEntry(key: "former-key-1", device: "share-token", fingerprint: "f", record: "former1", created: Date())]
            try ShareLedgerRules.encoder.encode(records).write(to: home.appendingPathComponent("recent-shares.json"))
            try ShareLedgerRules.encoder.encode(keys).write(to: home.appendingPathComponent("share-keys.json"))
            try Data((secret + "\n").utf8).write(to: home.appendingPathComponent("feed-secret"))
        }
        // Another device's shares: the owner's browser lists them.
        let (owner, _) = try await server.pair(name: "owner")
        let shares = try await Self.shares(server, headers: ["Cookie": owner, "Accept": "application/json"])
        #expect(shares.map { $0["id"] as? String } == ["former2", "former1"], "\(shares)")
        #expect(shares.first?["state"] as? String == "failed: The site answered 404")
        var headers = try server.bearer
        headers["Idempotency-Key"] = "former-key-1"
        let reused = try await server.shareJSON(["url": "https://example.org/other"], headers: headers)
        #expect(reused.status == 409, "the kept key is known: \(reused.text)")
        #expect(try await Client.send("GET", "\(server.url)/feed/\(secret).xml").status == 200, "the old feed URL still works")
        for name in ["recent-shares.json", "share-keys.json", "feed-secret"] {
            #expect(!FileManager.default.fileExists(atPath: server.home.appendingPathComponent(name).path), "\(name)")
            #expect(FileManager.default.fileExists(atPath: server.home.appendingPathComponent(name + ".migrated").path), "\(name)")
        }
    }
}
