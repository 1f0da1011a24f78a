import Dispatch
import Foundation
import PiperSQLite

/// Serializes writes on one SQLite connection and commits concurrent inserts together. The first
/// writer to arrive while nobody commits becomes the leader: it takes every pending insert and
/// commits them in one transaction (one fsync for the batch), wakes each writer of the batch
/// through its own semaphore (no thundering herd), then hands leadership to the first writer that
/// queued meanwhile. If a batch fails, each of its inserts is retried alone so one bad row cannot
/// fail its neighbours.
///
/// `@unchecked Sendable`: `pending` and `leaderActive` are only touched while holding `lock`;
/// `connection` only while holding `connectionLock`. A ticket's result is written before its
/// semaphore is signalled, which orders it before the waiter reads it.
final class GroupCommit: @unchecked Sendable {
    private final class Ticket: @unchecked Sendable {
        let article: SavedArticle
        let wake = DispatchSemaphore(value: 0)
        var done = false
        var isLeader = false
        var error: Error?
        init(_ article: SavedArticle) { self.article = article }
    }

    private let lock = NSLock()
    private var pending: [Ticket] = []
    private var leaderActive = false
    private let connectionLock = NSLock()
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection) { self.connection = connection }

    func insert(_ article: SavedArticle) throws {
        let ticket = Ticket(article)
        lock.lock()
        pending.append(ticket)
        let leading = !leaderActive
        if leading {
            leaderActive = true
            ticket.isLeader = true
        }
        lock.unlock()
        if !leading { ticket.wake.wait() }      // woken when committed, or made leader
        if !ticket.done { lead() }
        if let error = ticket.error { throw error }
    }

    /// Runs `body` with the write connection while no batch is being committed.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connectionLock.withLock { try body(connection) }
    }

    /// Commits everything pending (including the leader's own ticket), then passes leadership on.
    private func lead() {
        lock.lock()
        let batch = pending
        pending = []
        lock.unlock()

        connectionLock.withLock { commit(batch) }
        for ticket in batch where !ticket.isLeader { ticket.wake.signal() }

        lock.lock()
        if let next = pending.first {
            next.isLeader = true        // leaderActive stays true
            lock.unlock()
            next.wake.signal()
        } else {
            leaderActive = false
            lock.unlock()
        }
    }

    private func commit(_ batch: [Ticket]) {
        do {
            try connection.database.transaction {
                for ticket in batch { try connection.insert(ticket.article) }
            }
        } catch {
            for ticket in batch {
                do { try connection.database.transaction { try connection.insert(ticket.article) } } catch { ticket.error = error }
            }
        }
        for ticket in batch { ticket.done = true }
    }
}
