import Foundation
import PiperSQLite

/// Serializes writes on one SQLite connection and commits concurrent inserts together: the first
/// waiting thread becomes the leader, takes every pending insert, and commits them in one
/// transaction (one fsync for the batch); the others wait for its result. If a batch fails, each
/// of its inserts is retried alone so one bad row cannot fail its neighbours.
///
/// `@unchecked Sendable`: `pending` and `leaderActive` are only touched while holding
/// `condition`; `connection` is only used by the current leader (or under `withConnection`).
final class GroupCommit: @unchecked Sendable {
    private final class Ticket {
        let article: SavedArticle
        var done = false
        var error: Error?
        init(_ article: SavedArticle) { self.article = article }
    }

    private let condition = NSCondition()
    private var pending: [Ticket] = []
    private var leaderActive = false
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection) { self.connection = connection }

    func insert(_ article: SavedArticle) throws {
        let ticket = Ticket(article)
        condition.lock()
        pending.append(ticket)
        while !ticket.done {
            if !leaderActive {
                leaderActive = true
                let batch = pending
                pending = []
                condition.unlock()
                commit(batch)
                condition.lock()
                leaderActive = false
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
        condition.unlock()
        if let error = ticket.error { throw error }
    }

    /// Runs `body` with the write connection while no batch is being committed.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        condition.lock()
        while leaderActive { condition.wait() }
        leaderActive = true
        condition.unlock()
        defer {
            condition.lock()
            leaderActive = false
            condition.broadcast()
            condition.unlock()
        }
        return try body(connection)
    }

    private func commit(_ batch: [Ticket]) {
        do {
            try connection.database.transaction {
                for ticket in batch { try connection.insert(ticket.article) }
            }
            condition.lock()
            for ticket in batch { ticket.done = true }
            condition.unlock()
        } catch {
            for ticket in batch {
                var failure: Error?
                do { try connection.database.transaction { try connection.insert(ticket.article) } } catch { failure = error }
                condition.lock()
                ticket.error = failure
                ticket.done = true
                condition.unlock()
            }
        }
    }
}
