import Foundation
import PiperCore

/// The library catalog's port: items (one row per content in the library folder), members (a
/// folder's own file of an item kept elsewhere) and rejections, and the lock every import into
/// the library folder runs under. Paths are relative to the library folder.
///
/// Two drivers: `LibraryCatalog`, the state folder's `library.sqlite` (one machine's library),
/// and PiperServer's `PostgresCatalog`, the server's PostgreSQL store (one library folder that
/// several servers mount, imported into under a lock held in the database). The importer, the
/// listing and the served library only speak to this port.
public protocol CatalogStore: AnyObject {
    /// Placed items, oldest first, then the folders' members (each listed under its own path).
    func items() throws -> [LibraryItem]
    /// The placed item whose SHA-256 starts with `prefix` (lowercase hex), when exactly one does.
    func placedItem(sha256Prefix prefix: String) throws -> LibraryItem?
    /// The most recent rejections, newest first.
    func recentRejections(limit: Int) throws -> [Rejection]
    /// The item (placed or being placed) with this content, if any.
    func item(sha256: String) throws -> LibraryItem?
    /// The paths of the members of the item with this content, oldest first.
    func members(sha256: String) throws -> [String]
    /// Records `path` as the folder's own file of the item with this content.
    func addMember(path: String, sha256: String) throws
    /// True when `path` is a member (a folder's file of an item kept elsewhere).
    func isMember(_ path: String) throws -> Bool
    /// Forgets the member at `path`.
    func forgetMember(path: String) throws
    /// The item's file is going: its first member becomes the item (in one transaction), so the
    /// folder keeps it. Returns the member's path, or nil when it has none.
    func promoteMember(of item: LibraryItem) throws -> String?
    /// True when some item below `folder/` came from the archive with this hash.
    func folderHoldsArchive(_ folder: String, archiveSHA256: String) throws -> Bool
    /// True when an item or a member has this path.
    func isPathTaken(_ path: String) throws -> Bool
    /// Step 1 of placing: the row exists, marked `placing`, before the file moves. Returns its id.
    func beginPlacing(_ item: LibraryItem, archiveSHA256: String?) throws -> Int64
    /// Step 3 of placing: the file is in the library.
    func markPlaced(_ id: Int64) throws
    /// Forgets the item row with this id.
    func forget(_ id: Int64) throws
    /// Forgets the item row with this path.
    func forget(path: String) throws
    /// Records a refused file.
    func record(_ rejection: Rejection) throws
    /// Item rows still `placing` (left by a crash, or by an import under way elsewhere when the
    /// caller does not hold the import lock).
    func placingRows() throws -> [CatalogRow]
    /// Item rows whose path is absolute (an old catalog, or one written by hand).
    func absolutePathRows() throws -> [CatalogRow]
    /// Gives the item row `id` the path `path`.
    func setPath(_ path: String, id: Int64) throws
    /// Runs `body` holding the import lock: one import into the library folder at a time,
    /// across every process (and, for a shared store, every server) that imports into it.
    /// `state` is the importing process's state folder (its inbox and scratch folder).
    func withImportLock<T>(state: StateFolder, _ body: () throws -> T) throws -> T
}

/// An item row as the catalog's repairs see it.
public struct CatalogRow: Sendable, Equatable {
    public var id: Int64
    public var path: String
    public var sha256: String

    public init(id: Int64, path: String, sha256: String) {
        self.id = id
        self.path = path
        self.sha256 = sha256
    }
}

extension CatalogStore {
    /// Step 1 of placing, for a file that came from no archive.
    func beginPlacing(_ item: LibraryItem) throws -> Int64 { try beginPlacing(item, archiveSHA256: nil) }

    /// The 20 most recent rejections, newest first.
    func recentRejections() throws -> [Rejection] { try recentRejections(limit: 20) }

    /// Rows that name their file by an absolute path are made relative to `libraryRoot`: the
    /// path below the root when it lies there, else (the folder was moved) the longest tail of
    /// it that names a file in the root. Catalog paths are relative, so moving the library
    /// folder and pointing the settings at it keeps every item. Returns how many rows changed.
    @discardableResult
    package func relativizePaths(libraryRoot: URL) throws -> Int {
        let root = libraryRoot.standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var fixes: [(id: Int64, path: String)] = []
        for row in try absolutePathRows() {
            if row.path.hasPrefix(prefix), row.path.count > prefix.count {
                fixes.append((row.id, String(row.path.dropFirst(prefix.count))))
                continue
            }
            let parts = row.path.split(separator: "/").map(String.init)
            if let tail = (1..<max(parts.count, 1)).lazy.map({ parts[$0...].joined(separator: "/") })
                .first(where: { LibraryLayout.exists(libraryRoot.appendingPathComponent($0)) }) {
                fixes.append((row.id, tail))
            }
        }
        for fix in fixes where try !isPathTaken(fix.path) { try setPath(fix.path, id: fix.id) }
        return fixes.count
    }

    /// Repairs rows left `placing` by a crash: if the file reached the library with the same
    /// content the row becomes `placed`; otherwise the row goes (the source, still in the inbox,
    /// is imported again). Returns how many rows were repaired. Call it holding the import lock.
    @discardableResult
    func reconcile(libraryRoot: URL) throws -> Int {
        let stuck = try placingRows()
        for row in stuck {
            let file = libraryRoot.appendingPathComponent(row.path)
            if let digest = try? SHA256.hex(ofFile: file), digest == row.sha256 {
                try markPlaced(row.id)
            } else {
                try forget(row.id)
            }
        }
        return stuck.count
    }
}
