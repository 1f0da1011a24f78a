import Foundation
import MediaImport

/// The order a folder's items are played in (a book's parts, a playlist, a show): the disc and
/// track numbers from the tags, else the leading number of the file name (Piper numbers a
/// playlist's or feed's files in their order), else the name. The library page and the folder
/// feeds follow it; the loose items outside folders stay newest first.
enum PlayOrder {
    struct Key: Comparable {
        var disc: Int
        var track: Int
        var name: String

        static func < (a: Key, b: Key) -> Bool { (a.disc, a.track, a.name) < (b.disc, b.track, b.name) }
    }

    static func key(_ item: LibraryItem, position: TrackPosition) -> Key {
        let name = URL(fileURLWithPath: item.path).lastPathComponent
        return Key(disc: position.disc ?? 1, track: position.track ?? TrackPosition.leadingNumber(name) ?? Int.max,
                   name: name.lowercased())
    }

    /// `items` (one folder's) in play order.
    static func sorted(_ items: [LibraryItem], shelf: LibraryShelf) -> [LibraryItem] {
        items.map { ($0, key($0, position: shelf.position(of: $0))) }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The whole library as the page shows it: each folder's items in play order, folders
    /// where their newest item stood, the loose items newest first.
    static func grouped(_ items: [LibraryItem], shelf: LibraryShelf) -> [LibraryItem] {
        var order: [String] = []
        var folders: [String: [LibraryItem]] = [:]
        for item in items {
            let folder = LibraryGroups.folder(of: item)
            if folders[folder] == nil { order.append(folder) }
            folders[folder, default: []].append(item)
        }
        return order.flatMap { folder in folder.isEmpty ? folders[folder] ?? [] : sorted(folders[folder] ?? [], shelf: shelf) }
    }
}
