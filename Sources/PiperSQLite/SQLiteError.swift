import CSQLite

/// A SQLite result code with the library's message. The SQL text is kept for debugging but
/// never put in `description`, which may reach a user: it can contain user data.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (extended codes carry more in the high bits).
    public var primaryCode: Int32 { code & 0xff }
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    public var description: String { "SQLite error \(code): \(message)" }
}
