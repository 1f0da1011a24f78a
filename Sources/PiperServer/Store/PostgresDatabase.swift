import Foundation
import PiperSystem

/// One server's PostgreSQL (`--postgres`): one pool of libpq connections, sized by
/// `--postgres-pool`, shared by every PostgreSQL store of the process (saves, rate limits,
/// credentials and the share ledger), over a schema brought up to date when it opens
/// (`PostgresDatabase+Migrations`). Before it, each store opened a pool of its own (16 + 4 + 4
/// connections a server at most) and ran its own DDL.
///
/// Sendable: the pool hands each connection to one thread at a time; the rest is immutable.
public final class PostgresDatabase: Sendable {
    /// Connections a server opens at most unless `--postgres-pool` says otherwise: as many as the
    /// busiest of the former pools (the saves'), so no store waits where it did not before.
    public static let defaultConnections = 16

    /// The most connections the pool opens (they are opened as needed).
    public let connections: Int
    private let pool: ConnectionPool<PostgresConnection>

    /// Connects to `url` (a libpq URI or conninfo string) and applies the migrations this build
    /// knows that the database lacks. Throws `StoreError(.unavailable)` when PostgreSQL cannot be
    /// used, and `PostgresSchemaTooNew` when the database was migrated by a newer piper.
    public convenience init(url: String, connections: Int = PostgresDatabase.defaultConnections) throws {
        try self.init(url: url, connections: connections, migrations: Self.migrations)
    }

    /// The same with a given schema history (tests).
    init(url: String, connections: Int, migrations: [PostgresMigration]) throws {
        self.connections = max(1, connections)
        pool = ConnectionPool(limit: self.connections) { try PostgresConnection(url: url) }
        do {
            try withConnection { try Self.migrate($0, to: migrations) }
        } catch let error as PostgresError {
            throw StoreError(.unavailable, "Cannot use PostgreSQL: \(error.description)")
        } catch let error as PostgresRowError {
            throw StoreError(.failed, "Cannot use PostgreSQL: \(error.description)")
        }
    }

    /// Runs `body` on a pooled connection, with libpq's and the row decoder's errors as thrown.
    /// A connection whose socket broke is dropped, not reused.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.with(discardOn: Self.isBroken, body)
    }

    /// Runs `body` on a pooled connection; a failure becomes a `StoreError` saying what failed
    /// (`what`: "read", "insert", ...): unavailable when the connection was lost.
    func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try Self.reporting(what) { try withConnection(body) }
    }

    /// `body`, its failure as the `StoreError` a failure to `what` becomes.
    static func reporting<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw storeError(what, error)
        }
    }

    /// `run` inside one transaction: committed when `body` returns, rolled back when it throws.
    func transaction<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try run(what) { conn in try Self.inTransaction(conn) { try body(conn) } }
    }

    static func inTransaction<T>(_ conn: PostgresConnection, _ body: () throws -> T) throws -> T {
        try conn.execute("BEGIN")
        do {
            let result = try body()
            try conn.execute("COMMIT")
            return result
        } catch {
            _ = try? conn.execute("ROLLBACK")
            throw error
        }
    }

    /// The `StoreError` a driver's failure to `what` becomes.
    static func storeError(_ what: String, _ error: any Error) -> any Error {
        switch error {
        case let error as PostgresError:
            return StoreError(error.connectionLost ? .unavailable : .failed, "PostgreSQL \(what) failed: \(error.description)")
        case let error as PostgresRowError:
            return StoreError(.failed, "PostgreSQL \(what) failed: \(error.description)")
        default:
            return error
        }
    }

    /// A lost connection is dropped; so is one whose state is unknown after an error that is not
    /// the database's (a malformed row leaves it as good as before).
    private static func isBroken(_ error: any Error) -> Bool {
        if error is PostgresRowError { return false }
        return (error as? PostgresError)?.connectionLost ?? true
    }
}
