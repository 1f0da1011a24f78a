import Foundation
import MediaImport
import PiperCore

/// A server that kept its library in `library.sqlite` and now starts with `--postgres`: its rows
/// move into the store's catalog once, so the items it had stay listed. Items first (the first
/// row of a content is the item; a later row of the same content, a folder's member, becomes a
/// member), then the rejections; a row whose content or path the store already has (another
/// server adopted it, or imported the same bytes) is left out. Runs under the import lock, so
/// the library folder must be the shared one (`LibraryMount`); the file is then set aside as
/// `library.sqlite.migrated`, as the other former files are once imported into the store.
public enum LibraryAdoption {
    /// Adopts `state`'s `library.sqlite` into `catalog`; the number of rows adopted, 0 when there
    /// is no such file.
    @discardableResult
    public static func adopt(_ state: StateFolder, into catalog: PostgresCatalog) throws -> Int {
        let file = state.libraryCatalog
        guard FileManager.default.fileExists(atPath: file.path) else { return 0 }
        let listing = try LibraryListing.read(state: state, rejectionLimit: Int(Int32.max))
        let adopted = try catalog.withImportLock(state: state) { () -> Int in
            var count = 0
            var items: Set<String> = []
            for item in listing.items {
                if items.contains(item.sha256) {
                    if try !catalog.isPathTaken(item.path) {
                        try catalog.addMember(path: item.path, sha256: item.sha256)
                        count += 1
                    }
                    continue
                }
                items.insert(item.sha256)
                guard try catalog.item(sha256: item.sha256) == nil, try !catalog.isPathTaken(item.path) else { continue }
                try catalog.markPlaced(try catalog.beginPlacing(item, archiveSHA256: nil))
                count += 1
            }
            for rejection in listing.rejections.reversed() { try catalog.record(rejection) }
            return count
        }
        try FileManager.default.moveItem(at: file, to: file.appendingPathExtension("migrated"))
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + suffix))
        }
        return adopted
    }
}
