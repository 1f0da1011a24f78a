import Foundation

/// The one owner of a shared SQLite connection (GRDB's `DatabaseQueue` is the model): one
/// `Database` behind a lock, handed to one closure at a time.
/// - `read { db in }` runs `body` alone on the connection; it should only read.
/// - `write { db in }` runs `body` inside `BEGIN IMMEDIATE … COMMIT` and rolls back if it
///   throws; a return means the transaction is committed (durably: `synchronous=FULL`).
/// - `writeWithoutTransaction { db in }` is for what must run outside a transaction
///   (checkpoints, `PRAGMA synchronous`), or manages its own.
///
/// Calls nest on the thread that holds the connection: a `read` or `write` made inside a
/// `write` joins that write's transaction, so a method that writes can be called on its own or
/// from inside a larger write. Other processes (and other `DatabaseQueue`s on the same file)
/// are serialized by SQLite's own locks and the busy timeout.
///
/// `@unchecked Sendable`: `database` and `depth` are only touched while holding `lock`.
package final class DatabaseQueue: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let database: Database
    /// How many closures are running on the connection (nesting on the lock's holder).
    private var depth = 0

    /// The database file's path.
    package let path: String

    /// Opens (creating if needed) the database at `path` and applies `migrations`
    /// (see `Database.migrate`; a read-only queue applies none). `busyTimeoutMillis` is how long
    /// a statement waits for another connection's lock before it fails with `SQLITE_BUSY`.
    package init(path: String, readOnly: Bool = false, migrations: [Migration] = [], busyTimeoutMillis: Int32 = Database.defaultBusyTimeoutMillis) throws {
        let database = try Database(path: path, readOnly: readOnly, busyTimeoutMillis: busyTimeoutMillis)
        if !readOnly { try database.migrate(migrations) }
        self.database = database
        self.path = path
    }

    /// Runs `body` alone on the connection, outside any transaction of its own.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase(body)
    }

    /// Runs `body` in one immediate transaction, or inside the transaction of the `write` it is
    /// nested in. Rolls back and rethrows if `body` throws.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase { database in
            if depth > 1 && !database.isAutocommit { return try body(database) }
            return try database.transaction { try body(database) }
        }
    }

    /// Runs `body` alone on the connection, without starting a transaction.
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase(body)
    }

    private func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        depth += 1
        defer {
            depth -= 1
            lock.unlock()
        }
        return try body(database)
    }
}
