import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// A real `piper serve --postgres` on a database made before the schema had a history (the
/// fixture's statements, as the stores ran them), and the one handle's connections.
@Suite(.ownThread) struct PostgresAdoptionTests {
    static let fixture = packageRoot.appendingPathComponent("Tests/PiperServerTests/Fixtures/postgres-schema-before-history.sql")

    /// The fixture's statements: comment lines dropped, split where a line ends with ";".
    static func fixtureStatements() throws -> [String] {
        try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            .components(separatedBy: ";\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: ";")) }
            .filter { !$0.isEmpty }
    }

    /// The database a server of the version before the history left: its tables, a save, a
    /// device, the share token and a rate-limit bucket.
    static func databaseFromBeforeTheHistory(_ schema: FreshPostgresSchema, saveID: String) throws {
        let conn = try schema.connect()
        try conn.execute("SET client_min_messages = warning")
        for statement in try fixtureStatements() { try conn.execute(statement) }
        let now = Int64(Date().timeIntervalSince1970)
        try conn.execute("INSERT INTO piper_saves (id, title, content, created_at, expires_at, source_url) VALUES ($1, $2, $3, $4, $5, $6)",
                         [saveID, "Kept across the upgrade", "<p>Written by the version before the history.</p>",
                          String(now * 1000), String((now + 3600) * 1000), "https://example.org/kept"])
        try conn.execute("INSERT INTO piper_devices (id, name, kind, created, secret_hash, scope) VALUES ('ab12cd34', 'laptop', 'browser', $1, $2, 'owner')",
                         [String(now), DeviceRegistry.hash("laptop-secret")])
        try conn.execute("INSERT INTO piper_secrets (name, value) VALUES ('share-token', 'token-from-before')")
        try conn.execute("INSERT INTO piper_rate_limits (bucket, tokens, updated, allowed) VALUES ('save:10.0.0.1', 3, 1800000000, true)")
    }

    /// The first start of this version on that database adopts it in place: the data is all
    /// there, the version table holds every step, and neither that start nor the next prints a
    /// PostgreSQL notice (the version before printed about nine "relation … already exists,
    /// skipping" lines on every start).
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aDatabaseFromBeforeTheHistoryIsAdoptedInPlaceWithoutNotices() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let saveID = UUID().uuidString.lowercased()
        try Self.databaseFromBeforeTheHistory(schema, saveID: saveID)
        #expect(try PostgresDatabase.version(schema.connect()) == 0)

        let home = try freshDirectory("adopt")
        defer { try? FileManager.default.removeItem(at: home) }
        var logs: [String] = []
        for _ in 0..<2 {
            let server = try ServeProcess(arguments: ["--postgres", schema.url], home: home)
            let page = try await Client.get(server.url + "/" + saveID)
            #expect(page.status == 200)
            #expect(page.text.contains("Written by the version before the history."))
            #expect(server.stop(signal: SIGTERM) == 0)
            logs.append(server.stderr)
        }
        try PostgresMigrationTests.expectFullHistory(schema)
        for log in logs {
            #expect(!log.contains("NOTICE"), "\(log)")
            #expect(!log.contains("already exists"), "\(log)")
        }

        let listed = try PiperBinaryRun.piper(["devices", "--json", "--postgres", schema.url], home: home)
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
        #expect(rows.compactMap { $0["name"] as? String }.contains("laptop"))
        let database = try schema.open()
        #expect(try PostgresCredentials(database: database).storedSecret(named: "share-token") == "token-from-before")
        #expect(try schema.connect().execute("SELECT tokens FROM piper_rate_limits WHERE bucket = 'save:10.0.0.1'").onlyRow().double("tokens") == 3)
    }

    /// One server opens at most `--postgres-pool` connections for everything it keeps in
    /// PostgreSQL: under a burst of concurrent saves (each also spending a shared rate-limit
    /// token) with the credentials in use, `pg_stat_activity` shows no more than the pool's size
    /// for the server's application name.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func oneServerHoldsAtMostItsPoolsConnections() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let name = "piper_pool_" + schema.name.suffix(12)
        let url = schema.url(applicationName: name)
        let home = try freshDirectory("pool")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try ServeProcess(arguments: ["--postgres", url, "--postgres-pool", "2", "--threads", "8", "--burst", "1000"], home: home)
        let pairing = try PiperBinaryRun.piper(["pair", "--postgres", schema.url, "--url", server.url, "--no-qr"], home: home)
        #expect(pairing.status == 0, "\(pairing.stderr)")
        let base = server.url
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<48 {
                group.addTask { try await Client.save(base, title: "Save \(i)", content: "<p>Save number \(i) of a burst.</p>").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let count = try schema.connect().execute("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1", [name])
            .onlyRow().int64("n")
        #expect(count >= 1 && count <= 2, "\(count) connections")
    }
}
