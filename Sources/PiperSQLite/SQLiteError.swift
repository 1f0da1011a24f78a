import CSQLite

/// A SQLite result code with the library's message. The SQL text is kept for debugging but
/// never put in `description`, which may reach a user: it can contain user data.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package let code: Int32
    package let message: String
    package let sql: String?

    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (extended codes carry more in the high bits).
    package var primaryCode: Int32 { code & 0xff }
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    package var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    package var description: String { "SQLite error \(code): \(message)" }
}
