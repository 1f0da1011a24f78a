import Foundation
import PiperSQLite

/// Commits concurrent inserts together, on the `DatabasePool`'s one writer. One
/// committer thread owns the commits: it sleeps while nothing is queued, then takes every queued
/// insert and commits them in one transaction, and only once that is durable calls each
/// insert's completion. Inserts that arrive during a commit form the next batch. If a batch
/// fails, each of its inserts is retried alone so one bad row cannot fail its neighbours.
///
/// With a `WALSync` the writer runs `synchronous=NORMAL` and a second thread, the syncer, makes
/// commits durable: the committer hands each committed batch over and starts the next one at
/// once, while the syncer's one `fdatasync` covers every batch committed before it started, then
/// answers them. The disk's sync time and the committer's work on the next batch then overlap,
/// and a slow sync gathers more batches instead of holding up their commits. No completion runs
/// before the sync that covers its batch has returned. Without one (`sync` nil), each commit
/// syncs inside SQLite (`synchronous=FULL`) and the committer answers its batch itself.
///
/// Callers never wait for a thread switch to queue an insert, and the committer wakes nobody but
/// the completions' owners, so a save costs no handoff between request threads.
///
/// Other writes (the expiry sweep) take the writer between two batches: the pool's writer is
/// the one place that serializes them.
///
/// `@unchecked Sendable`: `queued`, `stopping`, `committed` and `committerDone` are only
/// touched while holding `condition` (the first two) or `syncCondition`; `database` serializes
/// itself.
final class GroupCommit: @unchecked Sendable {
    typealias Completion = @Sendable ((any Error)?) -> Void

    private struct Job {
        let article: SavedArticle
        let completion: Completion
    }

    private let condition = NSCondition()
    private var queued: [Job] = []
    private var stopping = false
    private let database: DatabasePool
    private let walSync: WALSync?
    private let syncCondition = NSCondition()
    /// Committed batches waiting for the syncer, with each insert's error (nil: committed).
    private var committed: [(Job, (any Error)?)] = []
    private var committerDone = false

    /// Runs after each batch is durable, before its completions.
    private let afterCommit: @Sendable () -> Void

    init(database: DatabasePool, sync walSync: WALSync? = nil, afterCommit: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.walSync = walSync
        self.afterCommit = afterCommit
        let thread = Thread { [self] in self.commitLoop() }
        thread.name = "piper-commit"
        thread.start()
        if let walSync {
            let syncer = Thread { [self] in self.syncLoop(walSync) }
            syncer.name = "piper-sync"
            syncer.start()
        }
    }

    /// Queues `article`; `completion` runs on the committer thread once its batch is durably
    /// committed (nil) or it failed (the SQLite error).
    func insert(_ article: SavedArticle, completion: @escaping Completion) {
        condition.lock()
        queued.append(Job(article: article, completion: completion))
        if queued.count == 1 { condition.signal() }
        condition.unlock()
    }

    /// Queues `article` and waits for its commit.
    func insert(_ article: SavedArticle) throws {
        let outcome = Outcome()
        insert(article) { error in
            outcome.error = error
            outcome.done.signal()
        }
        outcome.done.wait()
        if let error = outcome.error { throw error }
    }

    /// Lets the committer exit once the queue is empty (every queued insert still completes).
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func commitLoop() {
        var batch: [Job] = []
        while true {
            condition.lock()
            while queued.isEmpty && !stopping { condition.wait() }
            if queued.isEmpty {
                condition.unlock()
                if walSync != nil {
                    syncCondition.lock()
                    committerDone = true
                    syncCondition.signal()
                    syncCondition.unlock()
                }
                return
            }
            swap(&batch, &queued)       // the emptied last batch, capacity kept, is the new queue
            condition.unlock()

            let errors = commit(batch)
            if walSync != nil {
                syncCondition.lock()
                for (index, job) in batch.enumerated() { committed.append((job, errors[index])) }
                syncCondition.signal()
                syncCondition.unlock()
            } else {
                afterCommit()
                for (index, job) in batch.enumerated() { job.completion(errors[index]) }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// The syncer: one sync for everything committed so far, then those completions.
    private func syncLoop(_ walSync: WALSync) {
        var durable: [(Job, (any Error)?)] = []
        while true {
            syncCondition.lock()
            while committed.isEmpty && !committerDone { syncCondition.wait() }
            if committed.isEmpty {
                syncCondition.unlock()
                return
            }
            swap(&durable, &committed)
            syncCondition.unlock()

            var failure: (any Error)?
            do { try walSync.sync() } catch { failure = error }
            afterCommit()
            for (job, error) in durable { job.completion(error ?? failure) }
            durable.removeAll(keepingCapacity: true)
        }
    }

    /// Commits `batch` in one transaction; on failure, each insert alone. Returns each insert's error.
    private func commit(_ batch: [Job]) -> [(any Error)?] {
        do {
            try database.write { db in
                for job in batch { try SavedRows.insert(job.article, into: db) }
            }
            return Array(repeating: nil, count: batch.count)
        } catch {
            return batch.map { job in
                do {
                    try database.write { try SavedRows.insert(job.article, into: $0) }
                    return nil
                } catch {
                    return error
                }
            }
        }
    }

    /// A waiting insert's result. `@unchecked Sendable`: `error` is written before `done` is
    /// signalled and read after the wait returns.
    private final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var error: (any Error)?
    }
}
