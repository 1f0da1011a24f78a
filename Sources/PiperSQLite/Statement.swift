import CSQLite
import Foundation

/// A value bound to or read from SQLite.
package enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(nilLiteral: ()) { self = .null }
    package static func optional(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
    package static func optional(_ d: Double?) -> SQLValue { d.map { .double($0) } ?? .null }
}

/// One prepared statement. Owns its `sqlite3_stmt` for its whole life. It keeps no reference
/// to its `Database`: `sqlite3_close_v2` keeps a connection alive until its last statement is
/// finalized, so a statement outliving its database stays valid, and a database can cache its
/// statements (`Database.cachedStatement`) without a reference cycle.
package final class Statement {
    let handle: OpaquePointer
    let sql: String

    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(database.handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: database.lastErrorMessage, sql: sql)
        }
        self.handle = stmt
        self.sql = sql
    }

    /// The connection's latest error message.
    private var lastErrorMessage: String { String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))) }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    package func bind(_ values: [SQLValue]) throws {
        rebind()
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// Resets the statement and clears its bindings, for binding one parameter at a time
    /// (`bind(_:at:)`, `bindText(_:at:)`): a hot path then builds no array of values.
    package func rebind() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `value` to parameter `index` (1-based).
    package func bind(_ value: SQLValue, at index: Int) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, Int32(index)))
        case .int(let v): try check(sqlite3_bind_int64(handle, Int32(index), v))
        case .double(let v): try check(sqlite3_bind_double(handle, Int32(index), v))
        case .text(let v): try bindText(v, at: index)
        case .blob(let v):
            try check(v.withUnsafeBytes { sqlite3_bind_blob(handle, Int32(index), $0.baseAddress, Int32($0.count), piper_sqlite_transient()) })
        }
    }

    /// Binds `text` to parameter `index` (1-based), or NULL for nil. SQLite copies the bytes,
    /// with their length given, so it never scans them for the terminator.
    package func bindText(_ text: String?, at index: Int) throws {
        guard var text else { return try check(sqlite3_bind_null(handle, Int32(index))) }
        let rc = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, Int32(index), "", 0, piper_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, Int32(index), $0, Int32(bytes.count), piper_sqlite_transient())
            }
        }
        try check(rc)
    }

    /// Binds `value` to parameter `index` (1-based).
    package func bindInt(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), value))
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: lastErrorMessage, sql: sql) }
    }

    /// The current row after `step()` returned true; valid only until the next step.
    package var row: Row { Row(statement: self) }

    /// Ends the current run early (releases read locks) without clearing the bindings.
    package func reset() { sqlite3_reset(handle) }

    /// Steps once: true when a row is available, false when done.
    package func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: rc, message: lastErrorMessage, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }
}

/// The current row of a stepping statement; valid only until the next step.
package struct Row {
    let statement: Statement

    package var columnCount: Int { Int(sqlite3_column_count(statement.handle)) }
    package func isNull(_ i: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(i)) == SQLITE_NULL }
    package func int(_ i: Int) -> Int { Int(sqlite3_column_int64(statement.handle, Int32(i))) }
    package func int64(_ i: Int) -> Int64 { sqlite3_column_int64(statement.handle, Int32(i)) }
    package func double(_ i: Int) -> Double { sqlite3_column_double(statement.handle, Int32(i)) }
    package func text(_ i: Int) -> String {
        guard let p = sqlite3_column_text(statement.handle, Int32(i)) else { return "" }
        return String(cString: p)
    }
    package func optionalText(_ i: Int) -> String? { isNull(i) ? nil : text(i) }
    package func optionalDouble(_ i: Int) -> Double? { isNull(i) ? nil : double(i) }
    package func blob(_ i: Int) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(statement.handle, Int32(i)))
        guard n > 0, let p = sqlite3_column_blob(statement.handle, Int32(i)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
