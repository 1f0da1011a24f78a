import Foundation
import MediaImport
import PiperCore

/// The library's catalog in PostgreSQL (`--postgres`): `piper_library_items`, `_members` and
/// `_rejections` (schema step "library catalog"), the same rows as `library.sqlite`'s, for the
/// one library folder every server on the database mounts. Imports take turns across servers
/// under a session advisory lock (`withImportLock`), so the same bytes shared through two
/// servers are imported once; the SHA-256's uniqueness is the table's.
///
/// While a thread holds the import lock, its catalog calls run on the lock's own connection
/// (a session lock lives on one connection, and a pool of one must not wait for itself).
///
/// `@unchecked Sendable`: the lock's connection is only used by the thread that holds it
/// (`ImportLockHolder`); the rest is immutable.
public final class PostgresCatalog: CatalogStore, @unchecked Sendable {
    let database: PostgresDatabase
    static let items = "piper_library_items"
    static let members = "piper_library_members"
    static let rejections = "piper_library_rejections"
    /// The advisory lock of an import into the library folder (the migrations take another).
    static let importLock: Int64 = 7_061_706_580

    private let holder = ImportLockHolder<PostgresConnection>()

    /// The catalog in `database` (migrated when it opened).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    static let columns = "path, title, author, album, duration, chapters, format, size, sha256, source_url, original_name, added_at"
    static let memberColumns = "m.path AS path, i.title AS title, i.author AS author, i.album AS album, i.duration AS duration, "
        + "i.chapters AS chapters, i.format AS format, i.size AS size, i.sha256 AS sha256, i.source_url AS source_url, "
        + "i.original_name AS original_name, m.added_at AS added_at"

    /// An item row by column name; chapters that are not the JSON list they should be are an error.
    static func item(_ row: PostgresRow) throws -> LibraryItem {
        let chapters: [Chapter]
        do {
            chapters = try JSONDecoder().decode([Chapter].self, from: Data(try row.text("chapters").utf8))
        } catch let error as PostgresRowError {
            throw error
        } catch {
            throw PostgresRowError(column: "chapters", problem: "is not a list of chapters")
        }
        return LibraryItem(path: try row.text("path"), title: try row.text("title"), author: try row.optionalText("author"),
                           album: try row.optionalText("album"), duration: try row.optionalDouble("duration"), chapters: chapters,
                           format: try row.text("format"), size: try row.int64("size"), sha256: try row.text("sha256"),
                           sourceURL: try row.optionalText("source_url"), originalName: try row.text("original_name"),
                           addedAt: try row.text("added_at"))
    }

    static func row(_ row: PostgresRow) throws -> CatalogRow {
        CatalogRow(id: try row.int64("id"), path: try row.text("path"), sha256: try row.text("sha256"))
    }

    /// Runs `body` on the import lock's connection when this thread holds it, else on a pooled
    /// one; failures become `StoreError`s saying what failed.
    func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard let mine = holder.mine else { return try database.run(what, body) }
        return try PostgresDatabase.reporting(what) { try body(mine) }
    }

    /// `run` inside one transaction.
    func transaction<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try run(what) { conn in try PostgresDatabase.inTransaction(conn) { try body(conn) } }
    }

    /// The state folder's `import.lock` (this machine's importers of that inbox), then the
    /// database's advisory lock (every server's importer into the shared folder), then the
    /// check that the library folder here is the shared one (`LibraryMount`). The advisory lock
    /// is a session lock: if the server dies, PostgreSQL drops it with the connection. A thread
    /// that holds it already just runs `body`.
    public func withImportLock<T>(state: StateFolder, _ body: () throws -> T) throws -> T {
        if holder.mine != nil { return try body() }
        let local = try ImportLock(path: state.importLock.path)
        defer { withExtendedLifetime(local) {} }
        return try database.run("import lock") { conn in
            try conn.execute("SELECT pg_advisory_lock(\(Self.importLock))")
            defer { _ = try? conn.execute("SELECT pg_advisory_unlock(\(Self.importLock))") }
            return try holder.holding(conn) {
                try LibraryMount.check(state.library, catalog: self)
                return try body()
            }
        }
    }
}
