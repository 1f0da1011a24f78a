import Foundation
import PiperTestSupport
import Testing
@testable import PiperSQLite

/// The serialized owner of a connection and the pool of WAL readers, on real SQLite files.
@Suite(.ownThread) struct DatabaseQueueTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("piper-queue-\(UUID().uuidString).sqlite").path
    let migrations: [Migration] = ["CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
                                   "INSERT INTO counter (id, n) VALUES (1, 0)"]

    @Test func writesFromManyThreadsAreSerialized() throws {
        let queue = try DatabaseQueue(path: path, migrations: migrations)
        // Each write reads then updates: without one owner, increments would be lost or
        // would fail with "cannot start a transaction within a transaction".
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 {
                try? queue.write { db in
                    let n = try db.query("SELECT n FROM counter WHERE id = 1") { $0.int(0) }.first ?? -1
                    try db.run("UPDATE counter SET n = ? WHERE id = 1", [.int(Int64(n + 1))])
                }
            }
        }
        #expect(try queue.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [200])
    }

    @Test func aWriteIsATransactionThatRollsBack() throws {
        let queue = try DatabaseQueue(path: path, migrations: migrations)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try queue.write { db in
                try db.run("UPDATE counter SET n = 5")
                #expect(!db.isAutocommit)
                throw Boom()
            }
        }
        #expect(try queue.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [0])
        #expect(try queue.read { $0.isAutocommit })
    }

    @Test func aNestedWriteJoinsTheOuterTransaction() throws {
        let queue = try DatabaseQueue(path: path, migrations: migrations)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try queue.write { _ in
                try queue.write { try $0.run("UPDATE counter SET n = 7") }
                #expect(try queue.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [7])
                throw Boom()
            }
        }
        // The inner write was part of the outer transaction, so it rolled back with it.
        #expect(try queue.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [0])
    }

    @Test func poolReadersSeeCommittedWritesAndCannotWrite() throws {
        let pool = try DatabasePool(path: path, readers: 2, migrations: migrations)
        try pool.write { try $0.run("UPDATE counter SET n = 3") }
        #expect(try pool.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [3])
        #expect(throws: SQLiteError.self) { try pool.read { try $0.run("UPDATE counter SET n = 4") } }
    }

    @Test func poolReadsRunWhileAWriteIsOpen() throws {
        let pool = try DatabasePool(path: path, readers: 2, migrations: migrations)
        // A reader answers with the last commit while the writer holds an open transaction:
        // the read does not wait for the write (it would deadlock here if it did).
        let seen = try pool.write { db in
            try db.run("UPDATE counter SET n = 9")
            return try pool.read { try $0.query("SELECT n FROM counter") { $0.int(0) } }
        }
        #expect(seen == [0])
        #expect(try pool.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [9])
    }

    @Test func aFailingMigrationLeavesThePreviousVersion() throws {
        let broken: [Migration] = migrations + [Migration { db in
            try db.run("UPDATE counter SET n = 42")
            try db.execute("THIS IS NOT SQL")
        }]
        #expect(throws: SQLiteError.self) { _ = try DatabaseQueue(path: path, migrations: broken) }
        let queue = try DatabaseQueue(path: path, migrations: migrations)
        #expect(try queue.read { $0.userVersion } == 2)
        #expect(try queue.read { try $0.query("SELECT n FROM counter") { $0.int(0) } } == [0])
    }

    @Test func aDatabaseMigratedAllAtOnceByTheOlderRunnerGoesOn() throws {
        // The journal's former runner applied every step in one transaction and set the
        // version to their count; the one runner reads that count and applies only what is new.
        do {
            let db = try Database(path: path)
            try db.transaction {
                try db.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
                try db.execute("INSERT INTO counter (id, n) VALUES (1, 5)")
                try db.execute("PRAGMA user_version = 2")
            }
        }
        let queue = try DatabaseQueue(path: path, migrations: migrations + ["ALTER TABLE counter ADD COLUMN label TEXT"])
        #expect(try queue.read { $0.userVersion } == 3)
        #expect(try queue.read { try $0.query("SELECT n, label FROM counter") { "\($0.int(0)):\($0.optionalText(1) ?? "nil")" } } == ["5:nil"])
    }
}
