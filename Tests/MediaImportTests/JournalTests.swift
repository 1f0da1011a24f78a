import Foundation
import PiperSQLite
import PiperTestSupport
import Testing
@testable import MediaImport

/// The durable journal on real SQLite files.
@Suite(.ownThread) struct JournalTests {
    @Test func addingTheSameSourceTwiceIsAlreadyQueued() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let first = try journal.add(url: "https://h/a.mp3", source: "https://h/a.mp3", kind: .url, folder: "Books")
        let second = try journal.add(url: "https://h/a.mp3", source: "https://h/a.mp3", kind: .url, folder: nil)
        #expect(!first.alreadyQueued)
        #expect(second.alreadyQueued)
        #expect(second.entry.id == first.entry.id)
        #expect(first.entry.folder == "Books")
        #expect(try journal.entries().count == 1)
    }

    /// The agent and every sharing process share the journal: a share that meets another
    /// process's write lock waits it out (here 6 s, past SQLite's usual 5 s) instead of failing
    /// with "database is locked".
    @Test func anAddWaitsOutAnotherProcesssLongWriteLock() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let other = try DatabaseQueue(path: Journal.databaseFile(in: home.state).path)
        try other.writeWithoutTransaction { try $0.execute("BEGIN IMMEDIATE") }
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 6) {
            try? other.writeWithoutTransaction { try $0.execute("COMMIT") }
            released.signal()
        }
        let started = Date()
        let added = try journal.add(url: "https://h/a.mp3", source: "https://h/a.mp3", kind: .url, folder: nil)
        released.wait()
        #expect(Date().timeIntervalSince(started) >= 5.5, "the add ran only after the other lock was released")
        #expect(try journal.entry(id: added.entry.id)?.state == .queued)
    }

    @Test func aFinishedSourceMayBeQueuedAgain() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let first = try journal.add(url: "u", source: "s", kind: .url, folder: nil)
        try journal.markLanded(first.entry.id, file: "a.mp3")
        let again = try journal.add(url: "u", source: "s", kind: .url, folder: nil)
        #expect(!again.alreadyQueued)
        #expect(again.entry.id != first.entry.id)
    }

    @Test func statesSurviveReopeningAndInterruptedDownloadsAreRequeued() throws {
        let home = try TempHome()
        var id = ""
        do {
            let journal = try Journal(state: home.state)
            id = try journal.add(url: "u", source: "s", kind: .url, folder: nil).entry.id
            let claimed = try #require(try journal.claimNextQueued())
            #expect(claimed.state == .downloading)
            try journal.setMetadata(id, DownloadMetadata(fileName: "x.mp3", total: 100, etag: "\"e\"", lastModified: nil, contentType: nil))
            try journal.setProgress(id, bytes: 40, total: nil)
            #expect(try journal.claimNextQueued() == nil)
        }
        let reopened = try Journal(state: home.state)
        let entry = try #require(try reopened.entry(id: id))
        #expect(entry.state == .downloading)
        #expect(entry.bytes == 40)
        #expect(entry.total == 100)
        #expect(entry.etag == "\"e\"")
        #expect(entry.file == "x.mp3")
        #expect(try reopened.requeueInterrupted() == 1)
        #expect(try reopened.entry(id: id)?.state == .queued)
    }

    @Test func journalUsesWALAndFullSync() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        #expect(try journal.db.read { try $0.query("PRAGMA journal_mode") { $0.text(0) } }.first == "wal")
        #expect(try journal.db.read { try $0.query("PRAGMA synchronous") { $0.int(0) } }.first == 2)
        #expect(FileManager.default.fileExists(atPath: home.state.downloads.appendingPathComponent("journal.sqlite").path))
    }

    @Test func failedEntriesKeepTheirReason() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let id = try journal.add(url: "u", source: "s", kind: .url, folder: nil).entry.id
        try journal.markFailed(id, reason: "HTTP 404 Not Found")
        let entry = try #require(try journal.entry(id: id))
        #expect(entry.state == .failed)
        #expect(entry.reason == "HTTP 404 Not Found")
        #expect(try journal.count(in: DownloadState.active) == 0)
    }

    @Test func concurrentAddsFromManyConnectionsQueueOnce() throws {
        let home = try TempHome()
        _ = try Journal(state: home.state)
        let results = ResultsBox<Bool>()
        let state = home.state
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let journal = try? Journal(state: state),
               let added = try? journal.add(url: "u", source: "same", kind: .url, folder: nil) {
                results.append(added.alreadyQueued)
            }
        }
        #expect(results.values.count == 8)
        #expect(results.values.filter { !$0 }.count == 1)
    }
}

extension JournalTests {
    @Test func manyConnectionsCreatingAFreshJournalAtOnceAllSucceed() throws {
        let home = try TempHome()
        let state = home.state
        let results = ResultsBox<String>()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do { _ = try Journal(state: state); results.append("opened") } catch { results.append("\(error)") }
        }
        #expect(results.values == Array(repeating: "opened", count: 6))
        #expect(try Journal(state: state).db.read { $0.userVersion } == Journal.migrations.count)
    }
}

/// `@unchecked Sendable`: `values` is guarded by `lock`.
final class ResultsBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ v: Value) { lock.lock(); stored.append(v); lock.unlock() }
    var values: [Value] { lock.lock(); defer { lock.unlock() }; return stored }
}

extension JournalTests {
    /// A journal written by a build that knew only the first schema (its runner applied the
    /// steps in one transaction) opens, keeps its rows and gains the later columns.
    @Test func aJournalFromTheFirstSchemaIsMigrated() throws {
        let home = try TempHome()
        try home.state.ensure(home.state.downloads)
        do {
            let db = try Database(path: Journal.databaseFile(in: home.state).path)
            try db.transaction {
                try Journal.migrations[0].apply(db)
                try db.execute("PRAGMA user_version = 1")
                try db.run("INSERT INTO downloads (id, url, source, kind, state, bytes, created, updated) VALUES ('old1', 'https://h/a.mp3', 'https://h/a.mp3', 'url', 'failed', 12, 1, 2)")
            }
        }
        let journal = try Journal(state: home.state)
        #expect(try journal.db.read { $0.userVersion } == Journal.migrations.count)
        let old = try #require(try journal.entry(id: "old1"))
        #expect(old.state == .failed)
        #expect(old.bytes == 12)
        #expect(old.laterTries == 0)
        #expect(old.group == nil)
        try journal.retry("old1")
        #expect(try journal.entry(id: "old1")?.state == .queued)
        let added = try journal.add(url: "u", source: "s", kind: .url, folder: nil, group: "g", position: 1, title: "T")
        #expect(try journal.entries(group: "g").map(\.id) == [added.entry.id])
    }
}
