import Foundation
import PiperTestSupport
import Testing
@testable import PiperSQLite

@Suite(.ownThread) struct DatabaseTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("piper-sqlite-\(UUID().uuidString).sqlite").path
    let migrations: [Migration] = [
        "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
        "ALTER TABLE item ADD COLUMN size INTEGER",
    ]

    @Test func migratesOnceAndReopens() throws {
        do {
            let db = try Database(path: path)
            try db.migrate(migrations)
            #expect(db.userVersion == 2)
            try db.run("INSERT INTO item (name, size) VALUES (?, ?)", ["a", 1])
        }
        let again = try Database(path: path)
        try again.migrate(migrations)
        #expect(try again.query("SELECT name, size FROM item") { "\($0.text(0)):\($0.int(1))" } == ["a:1"])
        #expect(try again.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
    }

    @Test func concurrentOpenersApplyEachMigrationOnce() async throws {
        // Several connections race to create a fresh database; none may fail with
        // "table already exists" and the schema ends at the last version.
        let dbPath = path
        let migrations = self.migrations
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let db = try Database(path: dbPath)
                    try db.migrate(migrations)
                    return db.userVersion
                }
            }
            for try await version in group { #expect(version == 2) }
        }
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try Database(path: path)
        try db.migrate(migrations)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO item (name) VALUES ('x')")
                throw Boom()
            }
        }
        #expect(try db.query("SELECT count(*) FROM item") { $0.int(0) } == [0])
    }

    @Test func constraintErrorsCarryTheirCode() throws {
        let db = try Database(path: path)
        try db.migrate(migrations)
        try db.run("INSERT INTO item (name) VALUES ('dup')")
        do {
            try db.run("INSERT INTO item (name) VALUES ('dup')")
            Issue.record("expected a constraint error")
        } catch let error as SQLiteError {
            #expect(error.isConstraint)
            #expect(!error.description.contains("dup"), "user data stays out of the description")
        }
    }

    @Test func blobsAndNullsRoundTrip() throws {
        let db = try Database(path: path)
        try db.execute("CREATE TABLE b (v BLOB, t TEXT)")
        try db.run("INSERT INTO b VALUES (?, ?)", [.blob([0, 1, 255]), .null])
        let rows = try db.query("SELECT v, t FROM b") { ($0.blob(0), $0.optionalText(1)) }
        #expect(rows.count == 1)
        #expect(rows.first?.0 == [0, 1, 255])
        #expect(rows.first?.1 == nil)
    }
}
