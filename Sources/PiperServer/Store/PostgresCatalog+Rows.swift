import Foundation
import MediaImport

/// The catalog's reads and writes: the same statements as `LibraryCatalog`'s, in PostgreSQL's
/// words (`$n` parameters, `ON CONFLICT`, `RETURNING`), every row read by column name.
extension PostgresCatalog {
    public func items() throws -> [LibraryItem] {
        try run("read") { conn in
            try conn.execute("SELECT \(Self.columns) FROM \(Self.items) WHERE state = 'placed' ORDER BY id").rows.map(Self.item)
                + conn.execute("""
                    SELECT \(Self.memberColumns) FROM \(Self.members) m JOIN \(Self.items) i ON i.sha256 = m.sha256 AND i.state = 'placed'
                    ORDER BY m.seq
                    """).rows.map(Self.item)
        }
    }

    public func placedItem(sha256Prefix prefix: String) throws -> LibraryItem? {
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let found = try run("read") { conn in
            try conn.execute("SELECT \(Self.columns) FROM \(Self.items) WHERE state = 'placed' AND sha256 LIKE $1 LIMIT 2",
                             [prefix + "%"]).rows.map(Self.item)
        }
        return found.count == 1 ? found[0] : nil
    }

    public func recentRejections(limit: Int) throws -> [Rejection] {
        try run("read") { conn in
            try conn.execute("""
                SELECT file_name, reason, sha256, source_url, moved_to, rejected_at FROM \(Self.rejections) ORDER BY id DESC LIMIT $1
                """, [String(limit)]).rows.map { row in
                Rejection(fileName: try row.text("file_name"), reason: try row.text("reason"), sha256: try row.optionalText("sha256"),
                          sourceURL: try row.optionalText("source_url"), movedTo: try row.optionalText("moved_to"),
                          rejectedAt: try row.text("rejected_at"))
            }
        }
    }

    public func item(sha256: String) throws -> LibraryItem? {
        try run("read") { conn in
            try conn.execute("SELECT \(Self.columns) FROM \(Self.items) WHERE sha256 = $1", [sha256]).first.map(Self.item)
        }
    }

    public func members(sha256: String) throws -> [String] {
        try run("read") { conn in
            try conn.execute("SELECT path FROM \(Self.members) WHERE sha256 = $1 ORDER BY seq", [sha256]).rows.map { try $0.text("path") }
        }
    }

    public func addMember(path: String, sha256: String) throws {
        try run("insert") { conn in
            try conn.execute("""
                INSERT INTO \(Self.members) (path, sha256, added_at) VALUES ($1, $2, $3)
                ON CONFLICT (path) DO UPDATE SET sha256 = $2, added_at = $3
                """, [path, sha256, CatalogClock.now()])
        }
    }

    public func isMember(_ path: String) throws -> Bool {
        try run("read") { conn in try conn.execute("SELECT 1 FROM \(Self.members) WHERE path = $1", [path]).rowCount > 0 }
    }

    public func forgetMember(path: String) throws {
        try run("delete") { conn in try conn.execute("DELETE FROM \(Self.members) WHERE path = $1", [path]) }
    }

    public func promoteMember(of item: LibraryItem) throws -> String? {
        try transaction("update") { conn in
            guard let member = try conn.execute("SELECT path FROM \(Self.members) WHERE sha256 = $1 ORDER BY seq LIMIT 1",
                                                [item.sha256]).first?.text("path") else { return nil }
            try conn.execute("DELETE FROM \(Self.members) WHERE path = $1", [member])
            try conn.execute("UPDATE \(Self.items) SET path = $1 WHERE path = $2", [member, item.path])
            return member
        }
    }

    public func folderHoldsArchive(_ folder: String, archiveSHA256: String) throws -> Bool {
        let escaped = folder.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try run("read") { conn in
            try conn.execute("SELECT 1 FROM \(Self.items) WHERE archive_sha256 = $1 AND path LIKE $2 LIMIT 1",
                             [archiveSHA256, escaped + "/%"]).rowCount > 0
        }
    }

    public func isPathTaken(_ path: String) throws -> Bool {
        try run("read") { conn in
            try conn.execute("SELECT 1 FROM \(Self.items) WHERE path = $1 UNION ALL SELECT 1 FROM \(Self.members) WHERE path = $1",
                             [path]).rowCount > 0
        }
    }

    public func beginPlacing(_ item: LibraryItem, archiveSHA256: String?) throws -> Int64 {
        let chapters = String(decoding: try JSONEncoder().encode(item.chapters), as: UTF8.self)
        return try run("insert") { conn in
            try conn.execute("""
                INSERT INTO \(Self.items) (\(Self.columns), archive_sha256, state)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'placing') RETURNING id
                """, [item.path, item.title, item.author, item.album, item.duration.map { String($0) }, chapters, item.format,
                      String(item.size), item.sha256, item.sourceURL, item.originalName, item.addedAt, archiveSHA256])
                .onlyRow().int64("id")
        }
    }

    public func markPlaced(_ id: Int64) throws {
        try run("update") { conn in try conn.execute("UPDATE \(Self.items) SET state = 'placed' WHERE id = $1", [String(id)]) }
    }

    public func forget(_ id: Int64) throws {
        try run("delete") { conn in try conn.execute("DELETE FROM \(Self.items) WHERE id = $1", [String(id)]) }
    }

    public func forget(path: String) throws {
        try run("delete") { conn in try conn.execute("DELETE FROM \(Self.items) WHERE path = $1", [path]) }
    }

    public func record(_ rejection: Rejection) throws {
        try run("insert") { conn in
            try conn.execute("""
                INSERT INTO \(Self.rejections) (file_name, reason, sha256, source_url, moved_to, rejected_at) VALUES ($1, $2, $3, $4, $5, $6)
                """, [rejection.fileName, rejection.reason, rejection.sha256, rejection.sourceURL, rejection.movedTo, rejection.rejectedAt])
        }
    }

    public func placingRows() throws -> [CatalogRow] {
        try run("read") { conn in
            try conn.execute("SELECT id, path, sha256 FROM \(Self.items) WHERE state = 'placing'").rows.map(Self.row)
        }
    }

    public func absolutePathRows() throws -> [CatalogRow] {
        try run("read") { conn in
            try conn.execute("SELECT id, path, sha256 FROM \(Self.items) WHERE path LIKE '/%'").rows.map(Self.row)
        }
    }

    public func setPath(_ path: String, id: Int64) throws {
        try run("update") { conn in try conn.execute("UPDATE \(Self.items) SET path = $1 WHERE id = $2", [path, String(id)]) }
    }
}
