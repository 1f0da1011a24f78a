import Foundation
import PiperCore
import PiperSQLite
import PiperTestSupport
import Testing
@testable import MediaImport

/// Catalog paths are relative to the library root; rows an older catalog (or a hand edit)
/// wrote as absolute paths are made relative when the catalog is next read.
@Suite(.ownThread) struct CatalogPathTests {
    @Test func absoluteRowsBecomeRelative() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.mp3"), as: "one.mp3")
        try temp.land(fixture("sample.m4a"), as: "two.m4a")
        let importer = try LibraryImporter(state: temp.state)
        _ = try importer.importPending()
        let db = try Database(path: temp.state.libraryCatalog.path)
        let root = temp.state.library.standardizedFileURL.path
        // One row as if written under this root, one as if the folder lived elsewhere before.
        try db.run("UPDATE items SET path = ? WHERE path = 'one.mp3'", [.text(root + "/one.mp3")])
        try db.run("UPDATE items SET path = ? WHERE path = 'two.m4a'", [.text("/old/place/library/two.m4a")])
        try db.run("INSERT INTO items(path, title, format, size, sha256, original_name, added_at, state) VALUES (?, 'gone', 'mp3', 1, 'ab', 'x', 'now', 'placed')",
                   [.text("/nowhere/missing.mp3")])
        let listing = try LibraryListing.read(state: temp.state)
        #expect(Set(listing.items.map(\.path)) == ["one.mp3", "two.m4a", "/nowhere/missing.mp3"])
        for item in listing.items where !item.path.hasPrefix("/") {
            #expect(FileManager.default.fileExists(atPath: temp.state.library.appendingPathComponent(item.path).path))
        }
    }
}
