import Foundation
import PiperCore

/// What `piper library` shows: the placed items and the recent rejections.
public struct LibraryListing: Sendable, Codable, Equatable {
    /// The catalog's items, in the order they were placed.
    public var items: [LibraryItem]
    /// The most recent rejections, newest first (at most `rejectionLimit`).
    public var rejections: [Rejection]

    /// Reads the catalog of `state`; an empty listing when nothing was ever imported (no file
    /// is created then).
    public static func read(state: StateFolder, rejectionLimit: Int = 20) throws -> LibraryListing {
        guard FileManager.default.fileExists(atPath: state.libraryCatalog.path) else {
            return LibraryListing(items: [], rejections: [])
        }
        return try read(state: state, catalog: try LibraryCatalog(url: state.libraryCatalog), rejectionLimit: rejectionLimit)
    }

    /// Reads `catalog` (a server's shared one), its paths relative to the library of `state`.
    public static func read(state: StateFolder, catalog: any CatalogStore, rejectionLimit: Int = 20) throws -> LibraryListing {
        try catalog.relativizePaths(libraryRoot: state.library)
        return LibraryListing(items: try catalog.items(), rejections: try catalog.recentRejections(limit: rejectionLimit))
    }
}
