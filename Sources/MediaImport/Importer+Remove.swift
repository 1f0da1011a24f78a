import Foundation
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

extension LibraryImporter {
    public enum RemoveError: Error, CustomStringConvertible, Equatable {
        case noMatch(String)
        case ambiguous(String, [String])

        public var description: String {
            switch self {
            case .noMatch(let id): return "Nothing in the library matches \(id) (give its path, or the start of its SHA-256)"
            case .ambiguous(let id, let paths): return "\(id) matches \(paths.count) items: \(paths.joined(separator: ", ")); give more of it"
            }
        }
    }

    /// Removes one item, its catalog row and its file, under the import lock. The row goes
    /// first (one synced transaction), then the file: a crash in between leaves the file in
    /// `library/` uncatalogued, never a catalog entry for a file that is gone. `id` is the
    /// item's library path or a SHA-256 prefix (at least 8 hex digits). A folder's member (its
    /// own file of content kept elsewhere) goes alone; an item that folders hold members of
    /// hands its row to the first of them, so those folders stay whole.
    @discardableResult
    public func remove(_ id: String) throws -> LibraryItem {
        try catalog.withImportLock(state: state) {
            let items = try catalog.items()
            let lower = id.lowercased()
            var matches = items.filter { $0.path == id }
            if matches.isEmpty, lower.count >= 8, lower.allSatisfy(\.isHexDigit) {
                matches = items.filter { $0.sha256.hasPrefix(lower) }
            }
            guard let item = matches.first else { throw RemoveError.noMatch(id) }
            guard matches.count == 1 else { throw RemoveError.ambiguous(id, matches.map(\.path)) }
            if try catalog.isMember(item.path) {
                try catalog.forgetMember(path: item.path)
            } else if try catalog.promoteMember(of: item) == nil {
                try catalog.forget(path: item.path)
            }
            let file = state.library.appendingPathComponent(item.path)
            if unlink(file.path) != 0, errno != ENOENT { throw ImportError.io("cannot remove \(item.path): \(String(cString: strerror(errno)))") }
            // Folders the item leaves empty (an archive's, an --into folder's) go too.
            var folder = file.deletingLastPathComponent().standardizedFileURL
            let root = state.library.standardizedFileURL
            while folder.path.count > root.path.count, folder.path.hasPrefix(root.path), rmdir(folder.path) == 0 {
                folder = folder.deletingLastPathComponent()
            }
            return item
        }
    }
}
