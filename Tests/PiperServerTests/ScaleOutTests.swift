import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Two real `piper serve` on one PostgreSQL act as one server: who may share is one set of
/// credentials, whichever server or `piper` command changes it.
@Suite(.ownThread) struct ScaleOutTests {
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func pairedOnOneSharedOnTheOtherRevokedOnTheOtherRefusedOnTheFirst() async throws {
        let postgres = try PostgresTestDatabase.url()
        let site = try ShareSite.start()
        let a = try ShareServer(["--allow-host", "127.0.0.1", "--postgres", postgres])
        let b = try ShareServer(["--allow-host", "127.0.0.1", "--postgres", postgres])
        let name = "phone-" + UUID().uuidString.prefix(8).lowercased()

        // Pair on A, with piper pair on A's machine naming A's database.
        let pairing = try PiperBinaryRun.piper(["pair", "--postgres", postgres, "--url", a.url, "--no-qr"], home: a.home)
        try #require(pairing.status == 0, "\(pairing.stderr)")
        let link = pairing.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "code" }?.value, "\(link)")
        let paired = try await a.confirmPairing(code: code, name: name)
        try #require(paired.status == 200, "\(paired.text)")
        let cookie = try #require(paired.header("Set-Cookie")?.split(separator: ";").first.map(String.init))

        // One share token for both: A's works on B.
        #expect(try a.token() == b.token())
        let byToken = try await Client.send("GET", b.url + "/api/shares", headers: ["Authorization": "Bearer \(try a.token())"])
        #expect(byToken.status == 200)

        // Share on B with the cookie A set.
        let shared = try await b.shareJSON(["url": site.url("/article").absoluteString],
                                           headers: ["Cookie": cookie, "Accept": "application/json", "Sec-Fetch-Site": "same-origin"])
        #expect(shared.status == 200, "\(shared.text)")
        #expect(try eventually(within: 10) { b.serve.stderr.contains("\(name) POST /share 200") }, "\(b.serve.stderr)")
        let listed = try PiperBinaryRun.piper(["devices", "--json", "--postgres", postgres], home: b.home)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
        #expect(rows.first { $0["name"] as? String == name }?["lastAddress"] as? String == "127.0.0.1", "\(rows)")

        // Revoke on B: A refuses the cookie from its next request.
        let before = try await Client.send("GET", a.url + "/api/shares", headers: ["Cookie": cookie, "Accept": "application/json"])
        #expect(before.status == 200)
        let revoked = try PiperBinaryRun.piper(["devices", "revoke", name, "--postgres", postgres], home: b.home)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        let after = try await Client.send("GET", a.url + "/api/shares", headers: ["Cookie": cookie, "Accept": "application/json"])
        #expect(after.status == 401, "\(after.text)")
        let refused = try await b.shareJSON(["url": site.url("/article").absoluteString],
                                            headers: ["Cookie": cookie, "Accept": "application/json", "Sec-Fetch-Site": "same-origin"])
        #expect(refused.status == 401)
    }

    /// The recent shares, their keys, a media job's progress, the library and the feed's secret
    /// are the database's, not one server's: a share made on B is listed on A with its job's progress as
    /// B's journal moves it, its retry through A is the same share, and the feed URL and its
    /// revocation hold on both.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func sharesKeysProgressAndTheFeedAreOneAcrossServers() async throws {
        // A schema of the test's own: the library's catalog is the database's, for the one
        // library folder both servers mount.
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let postgres = schema.url
        let library = try freshDirectory("shared-library")
        let a = try ShareServer(["--postgres", postgres, "--library", library.path])
        let b = try ShareServer(["--postgres", postgres, "--library", library.path])
        let file = try ShareUploadTests.wav(bytes: 64 << 10, in: b.home)
        let key = "scale-" + UUID().uuidString
        let upload = try ShareUploadTests.curl(b, ["file=@\(file.path);type=audio/wav"],
                                               headers: ["Authorization: Bearer \(try b.token())", "Accept: application/json",
                                                         "Idempotency-Key: \(key)"])
        #expect(upload.status == 202, "\(upload.body)")
        let id = try #require(try JSONSerialization.jsonObject(with: Data(upload.body.utf8)) as? [String: Any])["id"] as? String
        try #require(id != nil, "\(upload.body)")

        // A lists B's share, and its state follows B's journal to the import.
        var onA: [String: Any] = [:]
        let followed = try await eventually(within: 30) {
            onA = try await ShareHistoryTests.shares(a).first { $0["id"] as? String == id } ?? [:]
            return (onA["state"] as? String)?.hasPrefix("imported as ") == true
        }
        #expect(followed, "\(onA)")
        #expect(onA["status"] as? String == "imported")

        // The same upload retried through A under its key is the same share, not a second job.
        let retried = try ShareUploadTests.curl(a, ["file=@\(file.path);type=audio/wav"],
                                                headers: ["Authorization: Bearer \(try a.token())", "Accept: application/json",
                                                          "Idempotency-Key: \(key)"])
        #expect((try JSONSerialization.jsonObject(with: Data(retried.body.utf8)) as? [String: Any])?["id"] as? String == id, "\(retried.body)")
        #expect(try await ShareHistoryTests.shares(a).filter { $0["source"] as? String == file.lastPathComponent }.count == 1)

        // One feed secret; revoked with piper library feed on B's machine, refused by A at once.
        let feed = try PiperBinaryRun.piper(["library", "feed", "--postgres", postgres], home: b.home)
        let secret = try #require(feed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").last?.dropLast(4).description,
                                  "\(feed.stderr)")
        #expect(try await Client.send("GET", "\(a.url)/feed/\(secret).xml").status == 200)
        #expect(try await Client.send("GET", "\(b.url)/feed/\(secret).xml").status == 200)
        let revoked = try PiperBinaryRun.piper(["library", "feed", "--revoke", "--postgres", postgres], home: a.home)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try await Client.send("GET", "\(b.url)/feed/\(secret).xml").status == 404)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aClientsRateLimitIsOneBudgetAcrossServers() async throws {
        let postgres = try PostgresTestDatabase.url()
        let arguments = ["--postgres", postgres, "--rate-limit", "1", "--burst", "2", "--trusted-proxy", "127.0.0.1"]
        let a = try ShareServer(arguments), b = try ShareServer(arguments)
        // A client of its own (a documentation address), so no other run's bucket counts.
        let client = "2001:db8::" + String(UInt16.random(in: 1...UInt16.max), radix: 16)
        func save(_ server: ShareServer) async throws -> Reply {
            try await Client.send("POST", server.url + "/save",
                                  body: try JSONSerialization.data(withJSONObject: ["title": "T", "content": "<p>x</p>"]),
                                  headers: ["X-Forwarded-For": client, "Content-Type": "application/json"])
        }
        #expect(try await save(a).status == 200)
        #expect(try await save(b).status == 200)
        let limitedOnA = try await save(a), limitedOnB = try await save(b)
        #expect(limitedOnA.status == 429 && limitedOnB.status == 429, "\(limitedOnA.text) \(limitedOnB.text)")
        #expect(limitedOnA.header("Retry-After").flatMap { Int($0) }.map { $0 >= 1 } == true)
    }
}

/// `PostgresRateLimits` against a real PostgreSQL: the token bucket `RateLimiter` keeps in
/// memory, one for every server on the database.
@Suite(.ownThread) struct PostgresRateLimitTests {
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func twoServersSpendAndRefillOneBucket() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let first = PostgresRateLimits(database: try schema.open())
        let second = PostgresRateLimits(database: try schema.open())
        let a = first.limiter(scope: "share", local: RateLimiter(perMinute: 60, burst: 2))
        let b = second.limiter(scope: "share", local: RateLimiter(perMinute: 60, burst: 2))
        let now: TimeInterval = 1_800_000_000
        #expect(a.take(client: "phone", now: now) == .allowed)
        #expect(b.take(client: "phone", now: now) == .allowed)
        #expect(a.take(client: "phone", now: now) == .denied(retryAfter: 1))
        #expect(b.take(client: "laptop", now: now) == .allowed, "each client has its own bucket")
        #expect(b.take(client: "phone", now: now + 0.5) == .denied(retryAfter: 0.5))
        #expect(a.take(client: "phone", now: now + 1) == .allowed, "a token a second refills")
        // Another scope (saves) counts apart.
        let saves = second.limiter(scope: "save", local: RateLimiter(perMinute: 60, burst: 1))
        #expect(saves.take(client: "phone", now: now + 1) == .allowed)
    }
}
