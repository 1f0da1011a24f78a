import Foundation
import PiperCore

/// The scale-out driver: several `piper serve` processes behind one balancer share one
/// PostgreSQL database, in the table `piper_saves` (`PostgresDatabase+Schema`). The process's
/// one `PostgresDatabase` lends it connections. A committed INSERT (autocommit) is what makes a
/// save's 200.
public final class PostgresStore: Store {
    private let database: PostgresDatabase
    private let table = "piper_saves"

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public var kind: String { "postgres" }

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
            guard let row = result.first else { return nil }
            return SavedArticle(id: id, title: try row.text("title"), content: try row.text("content"),
                                createdAt: Date(storeMillis: try row.int64("created_at")),
                                expiresAt: Date(storeMillis: try row.int64("expires_at")),
                                metadata: ArticleMetadata(columns: try ArticleMetadata.columnNames.map { try row.optionalText($0) }))
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
            return try result.first?.optionalText("source_url")
        }
    }

    public func checkHealth() throws {
        try run("health check") { conn in _ = try conn.execute("SELECT 1") }
    }

    @discardableResult
    private func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try database.withConnection(body)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(.duplicateID, "An article with this id exists")
        } catch {
            throw PostgresDatabase.storeError(what, error)
        }
    }
}
