import Foundation
import PiperCore
import PiperSQLite

/// Commits concurrent inserts together, on the `DatabasePool`'s one writer. One
/// committer thread owns the commits: it sleeps while nothing is queued, then takes every queued
/// insert and commits them in one transaction (one fsync for the batch), and only then calls each
/// insert's completion. Inserts that arrive during a commit form the next batch. If a batch
/// fails, each of its inserts is retried alone so one bad row cannot fail its neighbours.
///
/// Callers never wait for a thread switch to queue an insert, and the committer wakes nobody but
/// the completions' owners, so a save costs no handoff between request threads.
///
/// Other writes (the expiry sweep) take the writer between two batches: the pool's writer is
/// the one place that serializes them.
///
/// `@unchecked Sendable`: `queued` and `stopping` are only touched while holding
/// `condition`; `database` serializes itself.
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

    /// Runs on the committer thread after each batch, before its completions.
    private let afterCommit: @Sendable () -> Void

    init(database: DatabasePool, afterCommit: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.afterCommit = afterCommit
        let thread = Thread { [self] in self.commitLoop() }
        thread.name = "piper-commit"
        thread.start()
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
                return
            }
            swap(&batch, &queued)       // the emptied last batch, capacity kept, is the new queue
            condition.unlock()

            let errors = commit(batch)
            afterCommit()
            for (index, job) in batch.enumerated() { job.completion(errors[index]) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Commits `batch` in one transaction; on failure, each insert alone. Returns each insert's error.
    private func commit(_ batch: [Job]) -> [(any Error)?] {
        do {
            try database.write { db in
                let insert = try db.cachedStatement(SavedRows.insert)
                for job in batch { try SavedRows.insert(job.article, with: insert) }
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
