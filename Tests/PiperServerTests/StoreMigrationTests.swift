import Foundation
import PiperSQLite
import PiperTestSupport
import Testing
@testable import PiperServer

/// Databases made before the metadata columns open, keep their rows, and take new saves.
@Suite(.ownThread) struct StoreMigrationTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func sqliteFileFromTheFirstSchemaIsMigrated() throws {
        let dir = try freshDirectory("migrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("old.sqlite").path
        let old = article(title: "Old row")
        do {
            let database = try Database(path: path)
            try database.migrate(Array(SQLiteStore.migrations.prefix(1)))
            _ = try database.run("INSERT INTO saves (id, title, content, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                                 [.text(old.id), .text(old.title), .text(old.content),
                                  .int(old.createdAt.storeMillis), .int(old.expiresAt.storeMillis)])
        }
        let store = try SQLiteStore(path: path)
        #expect(try store.article(id: old.id, now: t0) == old)
        var new = article(title: "New row")
        new.metadata.sourceURL = "https://example.org/new"
        try store.insert(new)
        #expect(try store.article(id: new.id, now: t0) == new)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func postgresTableFromTheFirstSchemaIsMigrated() throws {
        let url = try PostgresTestDatabase.url()
        let table = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let old = article(title: "Old row")
        do {
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE \(table) (id uuid PRIMARY KEY, title text NOT NULL, content text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL)")
            try connection.execute("INSERT INTO \(table) (id, title, content, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                                   [old.id, old.title, old.content, String(old.createdAt.storeMillis), String(old.expiresAt.storeMillis)])
        }
        let store = try PostgresStore(url: url, table: table)
        defer { try? store.dropTable() }
        #expect(try store.article(id: old.id, now: t0) == old)
        var new = article(title: "New row")
        new.metadata.lang = "fr"
        try store.insert(new)
        #expect(try store.article(id: new.id, now: t0) == new)
    }
}
