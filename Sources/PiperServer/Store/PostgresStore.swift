import Foundation
import PiperCore
import PiperSystem

/// The scale-out driver: several `piper serve` processes behind one balancer share one
/// PostgreSQL database. Each process keeps a small pool of libpq connections. A committed
/// INSERT (autocommit) is what makes a save's 200.
public final class PostgresStore: Store {
    private let pool: ConnectionPool<PostgresConnection>
    private let table: String

    /// Connects to `url` (a libpq URI or conninfo string) and creates the table if needed.
    /// `table` must be a plain identifier (tests use one table each).
    public init(url: String, table: String = "piper_saves", connections: Int = 16) throws {
        guard Self.isPlainIdentifier(table) else {
            throw StoreError(.failed, "The PostgreSQL table name must be a plain identifier")
        }
        self.table = table
        pool = ConnectionPool(limit: connections) { try PostgresConnection(url: url) }
        do {
            try pool.with(discardOn: Self.isBroken) { conn in
                // An advisory lock keeps several servers starting at once from racing on DDL.
                try conn.execute("SELECT pg_advisory_lock(7061706572)")
                defer { _ = try? conn.execute("SELECT pg_advisory_unlock(7061706572)") }
                try conn.execute("""
                    CREATE TABLE IF NOT EXISTS \(table) (
                        id uuid PRIMARY KEY,
                        title text NOT NULL,
                        content text NOT NULL,
                        created_at bigint NOT NULL,
                        expires_at bigint NOT NULL
                    )
                    """)
                try conn.execute("CREATE INDEX IF NOT EXISTS \(table)_expires_at ON \(table) (expires_at)")
                // Where the article came from: added to tables made before these columns.
                try conn.execute("ALTER TABLE \(table) " + ArticleMetadata.columnNames.map { "ADD COLUMN IF NOT EXISTS \($0) text" }.joined(separator: ", "))
            }
        } catch let error as PostgresError {
            throw StoreError(.unavailable, "Cannot use PostgreSQL: \(error.description)")
        }
    }

    public var kind: String { "postgres" }

    /// A name safe to put in SQL as is: letters, digits and underscores, not starting with a
    /// digit, at most 63 characters.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.count <= 63
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    public func insert(_ article: SavedArticle) throws {
        try run("insert") { conn in
            try conn.execute("INSERT INTO \(table) (id, title, content, created_at, expires_at, \(Self.metadataColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                             [article.id, article.title, article.content,
                              String(article.createdAt.storeMillis), String(article.expiresAt.storeMillis)] as [String?]
                             + article.metadata.columns)
        }
    }

    public func article(id: String, now: Date) throws -> SavedArticle? {
        try run("read") { conn in
            let result = try conn.execute("SELECT title, content, created_at, expires_at, \(Self.metadataColumns) FROM \(table) WHERE id = $1 AND expires_at > $2",
                                          [id, String(now.storeMillis)])
            guard result.rowCount > 0 else { return nil }
            return SavedArticle(id: id, title: result.text(0, 0) ?? "", content: result.text(0, 1) ?? "",
                                createdAt: Date(storeMillis: Int64(result.text(0, 2) ?? "") ?? 0),
                                expiresAt: Date(storeMillis: Int64(result.text(0, 3) ?? "") ?? 0),
                                metadata: ArticleMetadata(columns: ArticleMetadata.columnNames.indices.map { result.text(0, 4 + $0) }))
        }
    }

    private static let metadataColumns = ArticleMetadata.columnNames.joined(separator: ", ")

    @discardableResult
    public func deleteExpired(now: Date) throws -> Int {
        try deleteExpired(now: now, keepingSourcesFor: 0)
    }

    @discardableResult
    public func deleteExpired(now: Date, keepingSourcesFor grace: TimeInterval) throws -> Int {
        let cutoff = String(now.addingTimeInterval(-max(0, grace)).storeMillis)
        let erased = SQLiteStore.erasedColumns
        return try run("sweep") { conn in
            let deleted = try conn.execute("DELETE FROM \(table) WHERE expires_at <= $1 AND (source_url IS NULL OR expires_at <= $2)",
                                           [String(now.storeMillis), cutoff]).affectedRows
            let blanked = try conn.execute("UPDATE \(table) SET title = '', content = '', \(erased) WHERE expires_at <= $1 AND (content != '' OR title != '')",
                                           [String(now.storeMillis)]).affectedRows
            return deleted + blanked
        }
    }

    public func expiredSourceURL(id: String, now: Date, grace: TimeInterval) throws -> String? {
        let cutoff = String(now.addingTimeInterval(-max(0, grace)).storeMillis)
        return try run("read") { conn in
            let result = try conn.execute("SELECT source_url FROM \(table) WHERE id = $1 AND expires_at <= $2 AND expires_at > $3",
                                          [id, String(now.storeMillis), cutoff])
            return result.rowCount > 0 ? result.text(0, 0) : nil
        }
    }

    public func checkHealth() throws {
        try run("health check") { conn in _ = try conn.execute("SELECT 1") }
    }

    /// Drops the table (tests only).
    public func dropTable() throws {
        try run("drop") { conn in _ = try conn.execute("DROP TABLE IF EXISTS \(table)") }
    }

    private static func isBroken(_ error: Error) -> Bool {
        (error as? PostgresError)?.connectionLost ?? true
    }

    @discardableResult
    private func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try pool.with(discardOn: Self.isBroken, body)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(.duplicateID, "An article with this id exists")
        } catch let error as PostgresError {
            throw StoreError(error.connectionLost ? .unavailable : .failed, "PostgreSQL \(what) failed: \(error.description)")
        }
    }
}
