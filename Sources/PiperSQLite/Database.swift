import CSQLite
import Foundation

/// One SQLite connection. The class owns the handle for its whole life: `init` opens it and
/// `deinit` closes it.
///
/// Not Sendable: a connection is used from one thread at a time. Code that shares one goes
/// through `DatabaseQueue` (one connection behind a lock) or `DatabasePool` (one writer and a
/// few WAL readers), which hand it to `read {}` / `write {}` closures.
package final class Database {
    let handle: OpaquePointer
    /// Statements kept prepared by `cachedStatement`, by SQL text.
    private var statements: [String: Statement] = [:]

    package let path: String

    /// Opens (creating if needed) the database at `path`, with WAL, `synchronous=FULL`
    /// (a committed transaction survives power loss), foreign keys on and a busy timeout.
    /// How long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY`: 30 s, not the few seconds SQLite's examples use. A holder's commit is a
    /// few fsyncs, and under heavy disk load (a CI run, a large upload or import beside it) an
    /// fsync can take seconds; a save, a share or an opener racing to migrate a fresh file
    /// should wait that out rather than fail with "database is locked".
    package static let defaultBusyTimeoutMillis: Int32 = 30_000

    package init(path: String, readOnly: Bool = false, busyTimeoutMillis: Int32 = Database.defaultBusyTimeoutMillis) throws {
        if let failure = piper_sqlite_load() {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: failure))
        }
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMillis)
        if !readOnly {
            try execute("PRAGMA journal_mode=WAL")
            try execute("PRAGMA synchronous=FULL")
        }
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// Prepares a statement; bind with `bind` and step with `step()`, or use `run`/`query`.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement for `sql`, prepared on first use and then reused (bind it again
    /// before each run). For the statements a hot path runs over and over.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement with parameters and returns the number of changed rows.
    @discardableResult
    package func run(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps each row.
    package func query<T>(_ sql: String, _ parameters: [SQLValue] = [], _ map: (Row) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var out: [T] = []
        while try statement.step() { out.append(try map(Row(statement: statement))) }
        return out
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back if it throws.
    /// A return from this function means the transaction is durably committed.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// True outside a transaction (SQLite's autocommit mode).
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The rowid of the latest successful insert on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The schema version kept in `PRAGMA user_version` (the number of migrations applied).
    package var userVersion: Int {
        get { (try? query("PRAGMA user_version") { $0.int(0) }.first) ?? 0 }
    }
}
