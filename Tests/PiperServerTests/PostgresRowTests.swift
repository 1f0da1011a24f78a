import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Rows are read by column name, and a row that does not have the shape its query promises is
/// an error the caller sees, never a default (`""`, `0`, a guessed scope).
@Suite(.ownThread) struct PostgresRowTests {
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aSaveWithANullTitleIsAnError() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let store = PostgresStore(database: try schema.open())
        let conn = try schema.connect()
        try conn.execute("ALTER TABLE piper_saves ALTER COLUMN title DROP NOT NULL")
        let id = UUID().uuidString.lowercased()
        try conn.execute("INSERT INTO piper_saves (id, title, content, created_at, expires_at) VALUES ($1, NULL, '<p>x</p>', 1800000000000, 1800003600000)", [id])
        #expect(throws: StoreError(.failed, "PostgreSQL read failed: malformed row: column title is NULL")) {
            _ = try store.article(id: id, now: Date(timeIntervalSince1970: 1_800_000_000))
        }
        // The connection is still good for the next read.
        #expect(try store.article(id: UUID().uuidString.lowercased(), now: Date()) == nil)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aDeviceWithAnUnknownScopeIsAnError() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let credentials = PostgresCredentials(database: try schema.open())
        try schema.connect().execute("""
            INSERT INTO piper_devices (id, name, kind, created, secret_hash, scope) VALUES ('ab12cd34', 'laptop', 'browser', 1800000000, 'h', 'admin')
            """)
        #expect(throws: StoreError(.failed, "PostgreSQL read failed: malformed row: column scope is not a known scope")) {
            _ = try credentials.devices()
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func columnsAreFoundByNameWhateverTheirOrder() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let result = try schema.connect().execute("SELECT 't'::boolean AS flag, NULL::text AS nothing, 42::bigint AS answer, 1.5::float8 AS half")
        let row = try result.onlyRow()
        #expect(try row.int64("answer") == 42)
        #expect(try row.double("half") == 1.5)
        #expect(try row.bool("flag"))
        #expect(try row.optionalText("nothing") == nil)
        #expect(throws: PostgresRowError.self) { _ = try row.text("nothing") }
        #expect(throws: PostgresRowError.self) { _ = try row.text("missing") }
        #expect(throws: PostgresRowError.self) { _ = try row.int64("half") }
        #expect(throws: PostgresRowError.self) { _ = try row.bool("answer") }
    }
}
