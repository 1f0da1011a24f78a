import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The PostgreSQL schema's history (`PostgresDatabase+Migrations`) on a real PostgreSQL, each
/// test in a schema of its own: from an empty database, from the schema made before the history
/// (the fixture), with several servers migrating at once, and with a newer schema than this
/// build knows.
@Suite(.ownThread) struct PostgresMigrationTests {
    /// The version table's rows, oldest first.
    static func history(_ schema: FreshPostgresSchema) throws -> [(version: Int64, name: String)] {
        try schema.connect().execute("SELECT version, name FROM piper_schema_migrations ORDER BY version").rows
            .map { (try $0.int64("version"), try $0.text("name")) }
    }

    static func expectFullHistory(_ schema: FreshPostgresSchema) throws {
        let history = try Self.history(schema)
        #expect(history.map(\.version) == Array(1...Int64(PostgresDatabase.migrations.count)))
        #expect(history.map(\.name) == PostgresDatabase.migrations.map(\.name))
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func anEmptyDatabaseGetsEveryStepRecorded() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let database = try schema.open()
        try Self.expectFullHistory(schema)
        let tables = try schema.connect().execute("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
                                                  [schema.name]).rows.map { try $0.text("table_name") }
        #expect(tables == ["piper_devices", "piper_follow_episodes", "piper_follows", "piper_library_items", "piper_library_members",
                           "piper_library_rejections", "piper_pairings", "piper_rate_limits", "piper_saves", "piper_schema_migrations",
                           "piper_secrets", "piper_share_keys", "piper_shares"])
        // Every store works on the one handle.
        let saved = SavedArticle(id: UUID().uuidString.lowercased(), title: "T", content: "<p>C</p>",
                                 createdAt: Date(timeIntervalSince1970: 1_800_000_000), expiresAt: Date(timeIntervalSince1970: 1_800_003_600))
        try PostgresStore(database: database).insert(saved)
        #expect(try PostgresStore(database: database).article(id: saved.id, now: saved.createdAt) == saved)
        #expect(try PostgresCredentials(database: database).secret(named: "share-token", proposing: "abc") == "abc")
        // A second open applies nothing more.
        _ = try schema.open()
        try Self.expectFullHistory(schema)
    }

    /// Several servers starting at once on one database: each step runs once. The steps here are
    /// not idempotent (a table made without "if not exists", a row added, a column added), so a
    /// step run twice would fail one of the opens or leave two rows.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func serversMigratingAtOnceApplyEachStepOnce() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let steps: [PostgresMigration] = [
            .sql("make", ["CREATE TABLE applied (step integer NOT NULL)"]),
            .sql("note", ["INSERT INTO applied (step) VALUES (2)"]),
            .sql("widen", ["ALTER TABLE applied ADD COLUMN extra text", "INSERT INTO applied (step) VALUES (3)"]),
        ]
        let servers = 6
        let errors = Failures()
        DispatchQueue.concurrentPerform(iterations: servers) { _ in
            do {
                _ = try PostgresDatabase(url: schema.url, connections: 2, migrations: steps)
            } catch {
                errors.add(error)
            }
        }
        #expect(errors.count == 0, "\(errors.descriptions)")
        let applied = try schema.connect().execute("SELECT step FROM applied ORDER BY step").rows.map { try $0.int64("step") }
        #expect(applied == [2, 3])
        #expect(try Self.history(schema).map(\.version) == [1, 2, 3])
        #expect(try Self.history(schema).map(\.name) == ["make", "note", "widen"])

        // And the real history, six servers at once on a fresh schema.
        let real = try FreshPostgresSchema()
        defer { real.drop() }
        DispatchQueue.concurrentPerform(iterations: servers) { _ in
            do { _ = try real.open(connections: 2) } catch { errors.add(error) }
        }
        #expect(errors.count == 0, "\(errors.descriptions)")
        try Self.expectFullHistory(real)
    }

    /// A database a newer piper migrated: this one refuses it, naming both versions, and
    /// `piper serve` exits 78 (a configuration to fix) without listening.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aNewerSchemaIsRefused() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        _ = try schema.open()
        let known = PostgresDatabase.migrations.count
        try schema.connect().execute("INSERT INTO piper_schema_migrations (version, name) VALUES ($1, 'a step from a newer piper')",
                                     [String(known + 2)])
        let message = "The PostgreSQL database is at schema version \(known + 2), newer than this piper knows (\(known)). Upgrade piper, or point --postgres at another database."
        #expect(throws: PostgresSchemaTooNew(found: known + 2, known: known)) { _ = try schema.open() }
        #expect(PostgresSchemaTooNew(found: known + 2, known: known).description == message)

        let home = try freshDirectory("newer-schema")
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            _ = try ServeProcess(arguments: ["--postgres", schema.url], home: home)
            Issue.record("piper serve started on a database newer than it knows")
        } catch let failure as ServeFailure {
            #expect(failure.status == 78)
            #expect(failure.stderr.contains(message))
        }
        // Nothing was changed: the newer version is still the last.
        #expect(try Self.history(schema).last?.version == Int64(known + 2))
    }
}
