import Foundation

/// A bounded pool of connections that are each used by one thread at a time (SQLite and libpq
/// handles are not thread-safe): PiperSQLite's `DatabasePool` readers and PiperServer's
/// PostgreSQL connections. Connections are created lazily up to `limit`; a caller waits when
/// all are busy.
///
/// `@unchecked Sendable`: `idle` and `created` are only touched while holding `condition`; a
/// checked-out connection belongs to exactly one thread until it is returned.
package final class ConnectionPool<Connection>: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var created = 0
    private let limit: Int
    private let make: () throws -> Connection

    package init(limit: Int, make: @escaping () throws -> Connection) {
        self.limit = max(1, limit)
        self.make = make
    }

    /// Runs `body` with a connection. If `body` throws an error for which `discard` says true,
    /// the connection is dropped instead of reused (a broken socket, say).
    package func with<T>(discardOn discard: (Error) -> Bool = { _ in false }, _ body: (Connection) throws -> T) throws -> T {
        let connection = try checkOut()
        do {
            let result = try body(connection)
            checkIn(connection)
            return result
        } catch {
            if discard(error) { drop() } else { checkIn(connection) }
            throw error
        }
    }

    private func checkOut() throws -> Connection {
        condition.lock()
        while idle.isEmpty && created >= limit { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        created += 1
        condition.unlock()
        do {
            return try make()
        } catch {
            drop()
            throw error
        }
    }

    private func checkIn(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    private func drop() {
        condition.lock()
        created -= 1
        condition.signal()
        condition.unlock()
    }
}
