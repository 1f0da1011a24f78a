import Foundation
import PiperSystem

/// One writer and a few readers on one WAL database (GRDB's `DatabasePool` is the model):
/// writes are serialized on the writer's `DatabaseQueue`, each one a transaction; reads run on
/// their own connections side by side, and with each other's writes (WAL readers see the last
/// commit made before they started and never wait for the writer).
///
/// `@unchecked Sendable`: `writer` serializes itself; each reader connection belongs to one
/// thread at a time (`ConnectionPool`).
package final class DatabasePool: @unchecked Sendable {
    private let writer: DatabaseQueue
    private let readers: ConnectionPool<Database>

    /// The database file's path.
    package var path: String { writer.path }

    /// Opens the writer (creating the file, applying `migrations`), then readers lazily, at most
    /// `readers` at once.
    package init(path: String, readers: Int = 4, migrations: [Migration] = []) throws {
        writer = try DatabaseQueue(path: path, migrations: migrations)
        self.readers = ConnectionPool(limit: readers) {
            let reader = try Database(path: path)
            try reader.execute("PRAGMA query_only = ON")
            return reader
        }
    }

    /// Runs `body` on a reader connection; it may run while a write is being committed.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try readers.with(body)
    }

    /// Runs `body` in one immediate transaction on the writer (see `DatabaseQueue.write`).
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.write(body)
    }

    /// Runs `body` on the writer without starting a transaction.
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction(body)
    }
}
