import Foundation
import PiperSQLite
import PiperTestSupport
import Testing
@testable import PiperServer

/// `GroupCommit` with a `WALSync`: an insert completes only after a sync that started once its
/// batch was committed, and a failed sync fails the batch.
@Suite(.ownThread) struct WALSyncTests {
    /// What the sync closure and the completions saw (`@unchecked Sendable`: behind `lock`).
    final class Events: @unchecked Sendable {
        let lock = NSLock()
        var syncs = 0
        var completed: [(syncsBefore: Int, error: (any Error)?)] = []
        let syncStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
    }

    private func database(_ name: String) throws -> (DatabasePool, URL) {
        let dir = try freshDirectory(name)
        let pool = try DatabasePool(path: dir.appendingPathComponent("saves.sqlite").path, migrations: SQLiteStore.migrations)
        try pool.writeWithoutTransaction { try $0.execute("PRAGMA synchronous=NORMAL") }
        return (pool, dir)
    }

    @Test func anInsertCompletesOnlyAfterTheSyncOfItsBatch() throws {
        let (pool, dir) = try database("wal-sync")
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Events()
        let sync = WALSync {
            events.lock.withLock { events.syncs += 1 }
            events.syncStarted.signal()
            events.release.wait()
        }
        let commit = GroupCommit(database: pool, durability: sync)
        defer { commit.stop() }
        let saved = article(title: "Synced")
        commit.insert(saved) { error in
            events.lock.withLock { events.completed.append((events.syncs, error)) }
            events.done.signal()
        }
        #expect(events.syncStarted.wait(timeout: .now() + 60) == .success)
        // The batch is committed (a reader sees it) but its sync has not returned: no completion yet.
        #expect(try pool.read { try SavedRows.article(in: $0, id: saved.id, now: saved.createdAt) } == saved)
        #expect(events.lock.withLock { events.completed.isEmpty })
        events.release.signal()
        #expect(events.done.wait(timeout: .now() + 60) == .success)
        let completed = events.lock.withLock { events.completed }
        #expect(completed.count == 1)
        #expect(completed.first?.syncsBefore == 1)
        #expect(completed.first?.error == nil)
    }

    @Test func aFailedSyncFailsEveryInsertOfItsBatch() throws {
        struct Failure: Error {}
        let (pool, dir) = try database("wal-sync-failure")
        defer { try? FileManager.default.removeItem(at: dir) }
        let commit = GroupCommit(database: pool, durability: WALSync { throw Failure() })
        defer { commit.stop() }
        #expect(throws: Failure.self) { try commit.insert(article(title: "Not durable")) }
    }

    @Test func theStoreSyncsTheRealWALFile() throws {
        let dir = try freshDirectory("wal-sync-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("saves.sqlite").path
        let store = try SQLiteStore(path: path)
        let saved = (0..<20).map { article(title: "Saved \($0)") }
        for a in saved { try store.insert(a) }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try SQLiteStore(path: path)
        for a in saved { #expect(try reopened.article(id: a.id, now: a.createdAt) == a) }
    }
}
