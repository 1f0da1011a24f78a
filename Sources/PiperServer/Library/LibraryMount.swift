import Foundation
import PiperCore

/// Whether the library folder a server imports into is the one every server on the database
/// shares. The first import on a database marks the folder (`.piper-library`, an id) and
/// records the id in the store (`piper_secrets`, `library-id`); every later import, on any
/// server, finds the same id in its folder or refuses. A server whose network share is not
/// mounted sees an empty local folder there: it imports nothing (the files wait in its inbox
/// and the agent tries again) rather than take the missing files for ones removed by hand and
/// drop their rows, which every server lists.
enum LibraryMount {
    static let markerName = ".piper-library"
    static let secretName = "library-id"

    /// Called holding the import lock (no other server is deciding the id meanwhile).
    static func check(_ library: URL, catalog: PostgresCatalog) throws {
        let marker = library.appendingPathComponent(markerName)
        let onDisk = (try? String(contentsOf: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = try catalog.run("read") { conn in
            try conn.execute("SELECT value FROM piper_secrets WHERE name = $1", [secretName]).first?.text("value")
        }
        if let stored {
            guard onDisk == stored else { throw LibraryMountError(folder: library.path, marked: onDisk != nil) }
            return
        }
        // The first import on this database: the folder's own id (a library marked before), else a new one.
        let id = onDisk ?? UUID().uuidString.lowercased()
        if onDisk == nil { try StateFolder.writeAtomically(Data((id + "\n").utf8), to: marker, mode: 0o644) }
        try catalog.run("insert") { conn in
            try conn.execute("INSERT INTO piper_secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", [secretName, id])
        }
    }
}

/// The library folder here is not the one the database's catalog describes.
struct LibraryMountError: Error, CustomStringConvertible {
    let folder: String
    /// True when the folder has a mark, of another library.
    let marked: Bool

    var description: String {
        marked
            ? "The library folder \(folder) belongs to another library than this database's catalog; point --library at the shared folder"
            : "The library folder \(folder) is not the shared library (no \(LibraryMount.markerName) in it): is the shared folder mounted there?"
    }
}
