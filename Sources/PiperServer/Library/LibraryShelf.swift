import Foundation
import MediaImport
import PiperCore

/// The server's view of the library: the same catalog (`library.sqlite`, or with `--postgres`
/// the store's, which every server on the database imports into) and folder the importer
/// fills, read per request, so what the agent inside `piper serve` (or any other process, or
/// another server) imports shows at once.
///
/// `@unchecked Sendable`: the catalog connection and the cover cache are only touched while
/// holding `lock` (one connection, one user at a time).
public final class LibraryShelf: @unchecked Sendable {
    public let state: StateFolder
    public let feed: FeedSecret
    private let lock = NSLock()
    private var catalog: (any CatalogStore)?
    /// The shared catalog (nil: the state folder's `library.sqlite`, opened when it exists).
    private let shared: (any CatalogStore & Sendable)?
    private var covers: [String: CoverArt?] = [:]
    private var positions: [String: TrackPosition] = [:]

    /// Items are named in URLs by the first 16 hex digits of their SHA-256 (64 bits: unique in
    /// any real library; `piper library rm` takes the same prefix).
    public static let idLength = 16

    /// `credentials`: the store that keeps the feed's secret (the server's); `catalog`: the
    /// store's catalog with `--postgres` (nil: `library.sqlite` in `state`).
    public init(state: StateFolder, credentials: any SecretStore, catalog: (any CatalogStore & Sendable)? = nil) {
        self.state = state
        feed = FeedSecret(state: state, store: credentials)
        shared = catalog
    }

    public static func id(of item: LibraryItem) -> String { String(item.sha256.prefix(idLength)) }

    /// Every placed item, newest first.
    public func items() throws -> [LibraryItem] {
        try withCatalog { try $0?.items().reversed() ?? [] }
    }

    /// The item named by an id, or nil.
    public func item(id: String) throws -> LibraryItem? {
        guard id.count == Self.idLength else { return nil }
        return try withCatalog { try $0?.placedItem(sha256Prefix: id.lowercased()) }
    }

    public func file(of item: LibraryItem) -> URL { state.library.appendingPathComponent(item.path) }

    /// The item's embedded cover, read once per content and kept.
    public func cover(of item: LibraryItem) -> CoverArt? {
        if let known = lock.withLock({ covers[item.sha256] }) { return known }
        let format = MediaFormat(rawValue: item.format)
        let found = format.flatMap { CoverArt.read(file(of: item), format: $0) }
        lock.withLock { covers[item.sha256] = .some(found) }
        return found
    }

    /// The item's disc and track numbers from its tags, read once per content and kept.
    public func position(of item: LibraryItem) -> TrackPosition {
        if let known = lock.withLock({ positions[item.sha256] }) { return known }
        let found = MediaFormat(rawValue: item.format).map { TrackPosition.read(file(of: item), format: $0) } ?? TrackPosition()
        lock.withLock { positions[item.sha256] = found }
        return found
    }

    /// Removes an item (its file and catalog row, through the importer's own removal).
    @discardableResult
    public func remove(id: String) throws -> LibraryItem {
        guard let item = try item(id: id) else { throw HTTPError(404, "Nothing in the library has the id \(id)") }
        return try LibraryImporter(state: state, catalog: shared).remove(item.sha256)
    }

    private func withCatalog<T>(_ body: ((any CatalogStore)?) throws -> T) throws -> T {
        if let shared { return try body(shared) }
        return try lock.withLock {
            if catalog == nil, FileManager.default.fileExists(atPath: state.libraryCatalog.path) {
                catalog = try LibraryCatalog(url: state.libraryCatalog)
            }
            return try body(catalog)
        }
    }
}
