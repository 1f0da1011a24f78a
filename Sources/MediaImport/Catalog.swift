import Foundation
import PiperCore
import PiperSQLite

/// The library catalog in `library.sqlite` (the `CatalogStore` of one machine's library): items (one row per content in `library/`),
/// members (a playlist or feed folder's hard link or copy of an item kept elsewhere, so the
/// folder is whole) and rejections. An item is inserted as `placing` before its file is moved
/// and set to `placed` after, so a crash in between is repaired by `reconcile` on the next run.
///
/// Not Sendable by convention (the importer's run lock keeps one importer at a time); its one
/// connection is a `DatabaseQueue`, so each call runs alone on it and every write is one
/// transaction.
package final class LibraryCatalog: CatalogStore {
    let db: DatabaseQueue
    private let lockHolder = ImportLockHolder<Void>()

    static let migrations: [Migration] = [
        """
        CREATE TABLE items(
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            author TEXT,
            album TEXT,
            duration REAL,
            chapters TEXT NOT NULL DEFAULT '[]',
            format TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL UNIQUE,
            source_url TEXT,
            original_name TEXT NOT NULL,
            added_at TEXT NOT NULL,
            archive_sha256 TEXT,
            state TEXT NOT NULL DEFAULT 'placing' CHECK (state IN ('placing', 'placed'))
        );
        CREATE TABLE rejections(
            id INTEGER PRIMARY KEY,
            file_name TEXT NOT NULL,
            reason TEXT NOT NULL,
            sha256 TEXT,
            source_url TEXT,
            moved_to TEXT,
            rejected_at TEXT NOT NULL
        );
        """,
        // A folder's own file (hard link, else copy) of an item whose content is in the
        // library already: the item's tags, its own path.
        """
        CREATE TABLE members(
            path TEXT PRIMARY KEY,
            sha256 TEXT NOT NULL,
            added_at TEXT NOT NULL
        );
        CREATE INDEX members_by_sha256 ON members(sha256);
        """,
    ]

    package init(url: URL, readOnly: Bool = false) throws {
        db = try DatabaseQueue(path: url.path, readOnly: readOnly, migrations: Self.migrations)
    }

    private static let columns = "path, title, author, album, duration, chapters, format, size, sha256, source_url, original_name, added_at"

    private static func item(_ row: Row) -> LibraryItem {
        let chapters = (try? JSONDecoder().decode([Chapter].self, from: Data(row.text(5).utf8))) ?? []
        return LibraryItem(path: row.text(0), title: row.text(1), author: row.optionalText(2), album: row.optionalText(3),
                           duration: row.optionalDouble(4), chapters: chapters, format: row.text(6), size: row.int64(7),
                           sha256: row.text(8), sourceURL: row.optionalText(9), originalName: row.text(10), addedAt: row.text(11))
    }

    /// The item columns of a member: the item's, with the member's own path and time.
    private static let memberColumns = "m.path, i.title, i.author, i.album, i.duration, i.chapters, i.format, i.size, i.sha256, "
        + "i.source_url, i.original_name, m.added_at"

    /// Placed items, oldest first, then the folders' members (each listed under its own path).
    package func items() throws -> [LibraryItem] {
        try db.read { db in
            try db.query("SELECT \(Self.columns) FROM items WHERE state = 'placed' ORDER BY id", [], Self.item)
                + db.query("SELECT \(Self.memberColumns) FROM members m JOIN items i ON i.sha256 = m.sha256 AND i.state = 'placed' ORDER BY m.rowid",
                           [], Self.item)
        }
    }

    /// The paths of the members of the item with this content.
    package func members(sha256: String) throws -> [String] {
        try db.read { try $0.query("SELECT path FROM members WHERE sha256 = ? ORDER BY rowid", [.text(sha256)]) { $0.text(0) } }
    }

    /// Records `path` as the folder's own file of the item with this content.
    package func addMember(path: String, sha256: String) throws {
        try db.write { _ = try $0.run("INSERT OR REPLACE INTO members(path, sha256, added_at) VALUES (?, ?, ?)",
                                      [.text(path), .text(sha256), .text(CatalogClock.now())]) }
    }

    /// True when `path` is a member (a folder's file of an item kept elsewhere).
    package func isMember(_ path: String) throws -> Bool {
        try db.read { try !$0.query("SELECT 1 FROM members WHERE path = ?", [.text(path)]) { _ in 1 }.isEmpty }
    }

    package func forgetMember(path: String) throws {
        try db.write { _ = try $0.run("DELETE FROM members WHERE path = ?", [.text(path)]) }
    }

    /// The item's file is going: its first member (a folder's own file of the same content)
    /// becomes the item, so the folder keeps it. Returns the member's path, or nil when it has none.
    package func promoteMember(of item: LibraryItem) throws -> String? {
        try db.write { db in
            guard let member = try db.query("SELECT path FROM members WHERE sha256 = ? ORDER BY rowid LIMIT 1",
                                            [.text(item.sha256)], { $0.text(0) }).first else { return nil }
            _ = try db.run("DELETE FROM members WHERE path = ?", [.text(member)])
            _ = try db.run("UPDATE items SET path = ? WHERE path = ?", [.text(member), .text(item.path)])
            return member
        }
    }

    /// The placed item whose SHA-256 starts with `prefix` (lowercase hex), when exactly one does.
    package func placedItem(sha256Prefix prefix: String) throws -> LibraryItem? {
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let found = try db.read {
            try $0.query("SELECT \(Self.columns) FROM items WHERE state = 'placed' AND sha256 >= ? AND sha256 < ? LIMIT 2",
                         [.text(prefix), .text(prefix + "g")], Self.item)
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The most recent rejections, newest first.
    package func recentRejections(limit: Int) throws -> [Rejection] {
        try db.read { db in
            try db.query("SELECT file_name, reason, sha256, source_url, moved_to, rejected_at FROM rejections ORDER BY id DESC LIMIT ?",
                         [.int(Int64(limit))]) { row in
                Rejection(fileName: row.text(0), reason: row.text(1), sha256: row.optionalText(2), sourceURL: row.optionalText(3),
                          movedTo: row.optionalText(4), rejectedAt: row.text(5))
            }
        }
    }

    /// The item (placed or being placed) with this content, if any.
    package func item(sha256: String) throws -> LibraryItem? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM items WHERE sha256 = ?", [.text(sha256)], Self.item).first }
    }

    /// True when some item below `folder/` came from the archive with this hash: a re-run of an
    /// interrupted archive import goes on filling the same folder.
    package func folderHoldsArchive(_ folder: String, archiveSHA256: String) throws -> Bool {
        let escaped = folder.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try db.read { db in
            try !db.query("SELECT 1 FROM items WHERE archive_sha256 = ? AND path LIKE ? ESCAPE '\\' LIMIT 1",
                          [.text(archiveSHA256), .text(escaped + "/%")]) { _ in 1 }.isEmpty
        }
    }

    package func isPathTaken(_ path: String) throws -> Bool {
        try db.read { db in
            try !db.query("SELECT 1 FROM items WHERE path = ? UNION ALL SELECT 1 FROM members WHERE path = ?",
                          [.text(path), .text(path)]) { _ in 1 }.isEmpty
        }
    }

    /// Step 1 of placing: the row exists, marked `placing`, before the file moves.
    /// `archiveSHA256` names the zip an entry came from.
    package func beginPlacing(_ item: LibraryItem, archiveSHA256: String?) throws -> Int64 {
        try db.write { db in
            let chapters = String(decoding: try JSONEncoder().encode(item.chapters), as: UTF8.self)
            try db.run("""
                INSERT INTO items(\(Self.columns), archive_sha256, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'placing')
                """, [.text(item.path), .text(item.title), .optional(item.author), .optional(item.album), .optional(item.duration),
                      .text(chapters), .text(item.format), .int(item.size), .text(item.sha256), .optional(item.sourceURL),
                      .text(item.originalName), .text(item.addedAt), .optional(archiveSHA256)])
            return db.lastInsertRowID
        }
    }

    /// Step 3 of placing: the file is in the library. This commit need not reach the disk at
    /// once (no fsync of its own): if power fails before the next synced commit, the row is
    /// still `placing` and `reconcile` finds the file by hash. Halves the fsyncs per import.
    package func markPlaced(_ id: Int64) throws {
        try db.writeWithoutTransaction { db in
            try db.execute("PRAGMA synchronous=NORMAL")
            defer { try? db.execute("PRAGMA synchronous=FULL") }
            try db.transaction { _ = try db.run("UPDATE items SET state = 'placed' WHERE id = ?", [.int(id)]) }
        }
    }

    package func forget(_ id: Int64) throws {
        try db.write { _ = try $0.run("DELETE FROM items WHERE id = ?", [.int(id)]) }
    }

    package func forget(path: String) throws {
        try db.write { _ = try $0.run("DELETE FROM items WHERE path = ?", [.text(path)]) }
    }

    package func record(_ rejection: Rejection) throws {
        try db.write { db in
            _ = try db.run("INSERT INTO rejections(file_name, reason, sha256, source_url, moved_to, rejected_at) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(rejection.fileName), .text(rejection.reason), .optional(rejection.sha256),
                        .optional(rejection.sourceURL), .optional(rejection.movedTo), .text(rejection.rejectedAt)])
        }
    }

    package func placingRows() throws -> [CatalogRow] {
        try db.read { db in
            try db.query("SELECT id, path, sha256 FROM items WHERE state = 'placing'") { row in
                CatalogRow(id: row.int64(0), path: row.text(1), sha256: row.text(2))
            }
        }
    }

    package func absolutePathRows() throws -> [CatalogRow] {
        try db.read { db in
            try db.query("SELECT id, path, sha256 FROM items WHERE path LIKE '/%'") { CatalogRow(id: $0.int64(0), path: $0.text(1), sha256: $0.text(2)) }
        }
    }

    package func setPath(_ path: String, id: Int64) throws {
        try db.write { _ = try $0.run("UPDATE items SET path = ? WHERE id = ?", [.text(path), .int(id)]) }
    }

    /// The state folder's `import.lock` (an exclusive `flock`): one importer at a time on the
    /// machine, as the catalog is the state folder's.
    /// A thread that holds it already just runs `body`.
    package func withImportLock<T>(state: StateFolder, _ body: () throws -> T) throws -> T {
        if lockHolder.mine != nil { return try body() }
        let lock = try ImportLock(path: state.importLock.path)
        defer { withExtendedLifetime(lock) {} }
        return try lockHolder.holding((), body)
    }
}
