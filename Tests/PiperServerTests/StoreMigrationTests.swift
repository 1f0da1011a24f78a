import Foundation
import PiperCore
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

    /// Schema 2 keyed the table by the id (`WITHOUT ROWID`); schema 3 keys it by save order with
    /// the id in a unique index. Every row, metadata and all, comes across; ids stay unique.
    @Test func sqliteFileKeyedByIDIsRekeyedBySaveOrder() throws {
        let dir = try freshDirectory("migrate-seq")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("v2.sqlite").path
        var olds: [SavedArticle] = []
        for i in 0..<50 {
            var old = article(title: "Old \(i)", content: "<p>Body \(i)</p>", created: t0.addingTimeInterval(Double(i % 7)))
            if i % 2 == 0 { old.metadata = ArticleMetadata(sourceURL: "https://example.org/\(i)", byline: "B \(i)", lang: "de", excerpt: "E \(i)") }
            olds.append(old)
        }
        do {
            let database = try Database(path: path)
            try database.migrate(Array(SQLiteStore.migrations.prefix(2)))
            #expect(try database.query("SELECT sql FROM sqlite_master WHERE name = 'saves'") { $0.text(0) }.first?.contains("WITHOUT ROWID") == true)
            for old in olds { try SavedRows.insert(old, into: database) }
        }
        let store = try SQLiteStore(path: path)
        for old in olds { #expect(try store.article(id: old.id, now: t0) == old) }
        let migrated = try Database(path: path)
        #expect(migrated.userVersion == SQLiteStore.migrations.count)
        #expect(try migrated.query("SELECT count(*) FROM saves") { $0.int(0) } == [olds.count])
        let seqOrder = try migrated.query("SELECT created_at FROM saves ORDER BY seq") { $0.int64(0) }
        #expect(seqOrder == seqOrder.sorted())
        #expect(try migrated.query("SELECT count(*) FROM sqlite_master WHERE name = 'saves_expires_at'") { $0.int(0) } == [1])

        var duplicate = olds[3]
        duplicate.title = "Second"
        #expect(throws: StoreError(.duplicateID, "An article with this id exists")) { try store.insert(duplicate) }
        #expect(try store.article(id: olds[3].id, now: t0)?.title == "Old 3")
        let new = article(title: "New row")
        try store.insert(new)
        #expect(try store.article(id: new.id, now: t0) == new)
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(7200)) == olds.count + 1)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func postgresTableFromTheFirstSchemaIsMigrated() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let old = article(title: "Old row")
        do {
            let connection = try schema.connect()
            try connection.execute("CREATE TABLE piper_saves (id uuid PRIMARY KEY, title text NOT NULL, content text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL)")
            try connection.execute("INSERT INTO piper_saves (id, title, content, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                                   [old.id, old.title, old.content, String(old.createdAt.storeMillis), String(old.expiresAt.storeMillis)])
        }
        let store = PostgresStore(database: try schema.open())
        #expect(try store.article(id: old.id, now: t0) == old)
        var new = article(title: "New row")
        new.metadata.lang = "fr"
        try store.insert(new)
        #expect(try store.article(id: new.id, now: t0) == new)
    }
}
