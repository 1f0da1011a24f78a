import Foundation
import PiperCore
import PiperSQLite

/// The default driver: one SQLite file in WAL mode with `synchronous=FULL`, so an insert that
/// returns has been durably committed. The file is a `DatabasePool`: reads run on a few WAL
/// reader connections side by side; every write goes through its one writer, and inserts
/// through `GroupCommit`, which commits concurrent inserts in one transaction.
public final class SQLiteStore: Store {
    static let migrations: [Migration] = [
        """
        CREATE TABLE saves (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX saves_expires_at ON saves(expires_at);
        """,
        // 2: where the article came from (all optional; older rows read back as nil).
        .sql(ArticleMetadata.columnNames.map { "ALTER TABLE saves ADD COLUMN \($0) TEXT;" }.joined(separator: "\n")),
        // 3: rows in save order under an integer key, the random id in its own unique index.
        .sql(rowOrderedSaves),
        // 4: who may share (`SQLiteCredentials`): devices by their secret's hash, pending pairings.
        .sql(SQLiteCredentials.schema),
        // 5: the recent shares and their idempotency keys (`SQLiteCredentials+Shares`).
        .sql(SQLiteCredentials.sharesSchema),
        // 6: a share key's claim belongs to a living run: its owner, lease and finished items.
        .sql(SQLiteCredentials.shareLeasesSchema),
        // 7: what each device and pending pairing may do (`DeviceScope`); reserved names renamed.
        SQLiteCredentials.scopesMigration,
    ]

    /// Migration 3. The table was keyed by the random id (`WITHOUT ROWID`), so every save went
    /// into a random leaf holding whole rows: a leaf holds about a dozen short saves or two or
    /// three long ones, so inserts split leaves often and each commit wrote two or three random
    /// pages per save (8.7 kB of WAL per short save, 23.5 kB per 11.5 kB article, measured at
    /// 50,000 and 5,000 rows). Now rows append at the table's right edge under `seq` (SQLite's
    /// rowid), and only the id index, about 100 entries a leaf, takes a random insert: 6.3 and
    /// 17.3 kB; in the server, the bytes written per short save (WAL, checkpoints, answer) fell
    /// from 14.5 to 9 kB. Reads go through the index, one more lookup in a small, hot tree.
    static let rowOrderedSaves = """
        CREATE TABLE saves_by_seq (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            \(ArticleMetadata.columnNames.map { "\($0) TEXT" }.joined(separator: ",\n    "))
        );
        INSERT INTO saves_by_seq (id, title, content, created_at, expires_at, \(ArticleMetadata.columnNames.joined(separator: ", ")))
            SELECT id, title, content, created_at, expires_at, \(ArticleMetadata.columnNames.joined(separator: ", "))
            FROM saves ORDER BY created_at, id;
        DROP TABLE saves;
        ALTER TABLE saves_by_seq RENAME TO saves;
        CREATE INDEX saves_expires_at ON saves(expires_at);
        """

    /// The writer's page cache: SQLite's default, 2 MiB, on purpose. Every commit that splits a
    /// b-tree page (most batches: the id index takes a random insert per save) renumbers a page
    /// through the lock-byte page's number, far above the file's end; SQLite's page cache then
    /// ends the transaction by walking its whole hash table to drop pages past the end. That
    /// walk grows with the cache: with 64 MiB it was 17–19 % of the commit thread's samples
    /// under a save load (a 30 MB file, so barely half full), with 8 MiB 8 %, with 2 MiB 1 %.
    /// The price of the small cache is a read of a random id-index leaf from the OS page cache
    /// per save, which did not show among the commit thread's samples.
    static let writerCacheKiB = 2 * 1024

    public let path: String
    private let database: DatabasePool
    private let writer: GroupCommit
    /// Moves committed pages from the WAL into the file, off the commit thread.
    let checkpointer: Checkpointer

    /// Opens (creating and migrating if needed) the database at `path`.
    public init(path: String, readers: Int = 4) throws {
        self.path = path
        let database = try DatabasePool(path: path, readers: readers, migrations: Self.migrations)
        try database.writeWithoutTransaction {
            try $0.execute("PRAGMA wal_autocheckpoint=\(Checkpointer.writerAutoCheckpointPages)")
            try $0.execute("PRAGMA cache_size=-\(Self.writerCacheKiB)")
        }
        let checkpointer = try Checkpointer(path: path)
        checkpointer.start()
        self.checkpointer = checkpointer
        self.database = database
        writer = GroupCommit(database: database) { checkpointer.noteCommit() }
    }

    public var kind: String { "sqlite" }

    deinit {
        writer.stop()
        checkpointer.stop()
    }

    public func insert(_ article: SavedArticle) throws {
        do {
            try writer.insert(article)
        } catch {
            throw Self.insertError(error)
        }
    }

    /// Queues the insert on the committer; `completion` runs on its thread once the batch holding
    /// this insert is durably committed.
    public func insert(_ article: SavedArticle, completion: @escaping @Sendable ((any Error)?) -> Void) {
        writer.insert(article) { error in completion(error.map(Self.insertError)) }
    }

    private static func insertError(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        return error.isConstraint ? StoreError(.duplicateID, "An article with this id exists")
                                  : StoreError(.failed, "SQLite insert failed: \(error.description)")
    }

    public func article(id: String, now: Date) throws -> SavedArticle? {
        do {
            return try database.read { try SavedRows.article(in: $0, id: id, now: now) }
        } catch let error as SQLiteError {
            throw StoreError(.failed, "SQLite read failed: \(error.description)")
        }
    }

    @discardableResult
    public func deleteExpired(now: Date) throws -> Int {
        try deleteExpired(now: now, keepingSourcesFor: 0)
    }

    @discardableResult
    public func deleteExpired(now: Date, keepingSourcesFor grace: TimeInterval) throws -> Int {
        do {
            return try database.write { db in
                let deleted = try db.run(
                    "DELETE FROM saves WHERE expires_at <= ? AND (source_url IS NULL OR expires_at <= ?)",
                    [.int(now.storeMillis), .int(now.addingTimeInterval(-max(0, grace)).storeMillis)])
                let erased = try db.run(
                    "UPDATE saves SET title = '', content = '', \(Self.erasedColumns) WHERE expires_at <= ? AND (content != '' OR title != '')",
                    [.int(now.storeMillis)])
                return deleted + erased
            }
        } catch let error as SQLiteError {
            throw StoreError(.failed, "SQLite sweep failed: \(error.description)")
        }
    }

    /// Every metadata column but the source URL, set to NULL.
    static let erasedColumns = ArticleMetadata.columnNames.dropFirst().map { "\($0) = NULL" }.joined(separator: ", ")

    public func expiredSourceURL(id: String, now: Date, grace: TimeInterval) throws -> String? {
        do {
            return try database.read { db in
                try db.query(
                    "SELECT source_url FROM saves WHERE id = ? AND expires_at <= ? AND expires_at > ?",
                    [.text(id), .int(now.storeMillis), .int(now.addingTimeInterval(-max(0, grace)).storeMillis)]
                ) { $0.optionalText(0) }.first ?? nil
            }
        } catch let error as SQLiteError {
            throw StoreError(.failed, "SQLite read failed: \(error.description)")
        }
    }

    public func checkHealth() throws {
        do {
            _ = try database.read { try $0.query("SELECT count(*) FROM saves WHERE 0") { $0.int(0) } }
        } catch let error as SQLiteError {
            throw StoreError(.unavailable, "SQLite is not usable: \(error.description)")
        }
    }
}

/// The `saves` rows: the two statements the hot paths run, prepared once per connection
/// (`Database.cachedStatement`).
enum SavedRows {
    static let select = "SELECT title, content, created_at, expires_at, \(ArticleMetadata.columnNames.joined(separator: ", ")) FROM saves WHERE id = ? AND expires_at > ?"
    static let insert = "INSERT INTO saves (id, title, content, created_at, expires_at, \(ArticleMetadata.columnNames.joined(separator: ", "))) VALUES (?, ?, ?, ?, ?\(String(repeating: ", ?", count: ArticleMetadata.columnNames.count)))"

    static func article(in db: Database, id: String, now: Date) throws -> SavedArticle? {
        let select = try db.cachedStatement(Self.select)
        try select.bind([.text(id), .int(now.storeMillis)])
        defer { select.reset() }
        guard try select.step() else { return nil }
        let row = select.row
        let metadata = ArticleMetadata(columns: ArticleMetadata.columnNames.indices.map { row.optionalText(4 + $0) })
        return SavedArticle(id: id, title: row.text(0), content: row.text(1),
                            createdAt: Date(storeMillis: row.int64(2)), expiresAt: Date(storeMillis: row.int64(3)),
                            metadata: metadata)
    }

    static func insert(_ article: SavedArticle, into db: Database) throws {
        try insert(article, with: try db.cachedStatement(Self.insert))
    }

    /// Runs the prepared `insert` statement (of the connection it belongs to) for `article`,
    /// binding each value in place: the commit thread builds no array of values per save.
    /// Parameters 6 to 12 are the metadata in `ArticleMetadata.columns` order.
    static func insert(_ article: SavedArticle, with insert: Statement) throws {
        insert.rebind()
        try insert.bindText(article.id, at: 1)
        try insert.bindText(article.title, at: 2)
        try insert.bindText(article.content, at: 3)
        try insert.bindInt(article.createdAt.storeMillis, at: 4)
        try insert.bindInt(article.expiresAt.storeMillis, at: 5)
        let metadata = article.metadata
        try insert.bindText(metadata.sourceURL, at: 6)
        try insert.bindText(metadata.byline, at: 7)
        try insert.bindText(metadata.siteName, at: 8)
        try insert.bindText(metadata.publishedTime, at: 9)
        try insert.bindText(metadata.lang, at: 10)
        try insert.bindText(metadata.dir, at: 11)
        try insert.bindText(metadata.excerpt, at: 12)
        while try insert.step() {}
    }
}
