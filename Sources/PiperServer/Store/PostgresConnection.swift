import CPostgres
import Foundation

/// A libpq error made a Swift value: the SQLSTATE code (when the server sent one) and libpq's
/// message. The SQL text and parameters are never part of it.
struct PostgresError: Error, CustomStringConvertible {
    let sqlState: String?
    let message: String
    /// True when the connection itself is broken and must not be reused.
    let connectionLost: Bool

    var isUniqueViolation: Bool { sqlState == "23505" }
    var description: String {
        "PostgreSQL error\(sqlState.map { " \($0)" } ?? ""): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}

/// One libpq connection. The class owns the `PGconn` for its whole life: `init` connects and
/// `deinit` calls `PQfinish`. Not Sendable: use it from one thread at a time (`ConnectionPool`).
final class PostgresConnection {
    private let handle: OpaquePointer

    init(url: String) throws {
        if let failure = piper_postgres_load() {
            throw PostgresError(sqlState: nil, message: String(cString: failure), connectionLost: false)
        }
        guard let conn = PQconnectdb(url) else {
            throw PostgresError(sqlState: nil, message: "out of memory", connectionLost: true)
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw PostgresError(sqlState: nil, message: message, connectionLost: true)
        }
        handle = conn
    }

    deinit { PQfinish(handle) }

    /// Runs one statement with text parameters (`$1`, `$2`, ...; nil is SQL NULL) and returns its
    /// rows as text (nil for SQL NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let cStrings = parameters.map { $0.flatMap { strdup($0) } }
        defer { cStrings.forEach { free($0) } }
        let values: [UnsafePointer<CChar>?] = cStrings.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer { buffer in
            PQexecParams(handle, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else {
            throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)),
                                connectionLost: PQstatus(handle) != CONNECTION_OK)
        }
        let owned = PostgresResult(result)
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw PostgresError(sqlState: state, message: String(cString: PQresultErrorMessage(result)),
                                connectionLost: PQstatus(handle) != CONNECTION_OK)
        }
        return owned
    }
}

/// Owns one `PGresult` (freed with `PQclear` in `deinit`).
final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows changed by an INSERT/UPDATE/DELETE.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The value at `row` of the column named `name` as text, nil for SQL NULL; throws when the
    /// result has no such column.
    func text(_ row: Int, _ name: String) throws -> String? {
        let column = PQfnumber(handle, name)
        guard column >= 0 else { throw PostgresRowError(column: name, problem: "is missing") }
        if PQgetisnull(handle, Int32(row), column) != 0 { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), column))
    }
}
