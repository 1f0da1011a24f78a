import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport
@testable import PiperServer

/// The library catalog's port (`CatalogStore`): the same body over `library.sqlite`
/// (`LibraryCatalog`) and the server's PostgreSQL (`PostgresCatalog`, a schema of its own).
@Suite(.ownThread) struct CatalogContractTests {
    /// A catalog of each kind and what removes it afterwards.
    static func catalogs() throws -> [(name: String, catalog: any CatalogStore, folder: TemporaryFolder, drop: () -> Void)] {
        let sqliteFolder = try TemporaryFolder("catalog-sqlite")
        var all: [(String, any CatalogStore, TemporaryFolder, () -> Void)] = [
            ("sqlite", try LibraryCatalog(url: sqliteFolder.url.appendingPathComponent("library.sqlite")), sqliteFolder, {}),
        ]
        if PostgresTestDatabase.isConfigured {
            let schema = try FreshPostgresSchema()
            all.append(("postgres", PostgresCatalog(database: try schema.open(connections: 2)), try TemporaryFolder("catalog-postgres"),
                        { schema.drop() }))
        }
        return all
    }

    static func item(_ path: String, sha256: String, title: String = "Episode", chapters: [Chapter] = []) -> LibraryItem {
        LibraryItem(path: path, title: title, author: nil, album: "Album", duration: 12.5, chapters: chapters, format: "mp3", size: 1234,
                    sha256: sha256, sourceURL: "https://example.com/a.mp3", originalName: "a.mp3", addedAt: "2026-12-06T09:00:00.000Z")
    }

    static func hex(_ first: Character, _ rest: Character = "0") -> String { String(first) + String(repeating: rest, count: 63) }

    @Test func placingMembersRejectionsAndRepairs() throws {
        for (name, catalog, folder, drop) in try Self.catalogs() {
            defer { drop() }
            let chapters = [Chapter(title: "Intro", start: 0), Chapter(title: "Talk", start: 61.5)]
            let first = Self.item("Show/one.mp3", sha256: Self.hex("a"), chapters: chapters)
            let id = try catalog.beginPlacing(first)
            #expect(try catalog.items().isEmpty, "\(name): a row being placed is not listed")
            #expect(try catalog.item(sha256: first.sha256) == first, "\(name): but it is found by content")
            #expect(try catalog.isPathTaken("Show/one.mp3"), "\(name)")
            try catalog.markPlaced(id)
            #expect(try catalog.items() == [first], "\(name): every field back, chapters included")
            #expect(try catalog.placedItem(sha256Prefix: "aaaa") == nil, "\(name)")
            #expect(try catalog.placedItem(sha256Prefix: "a000") == first, "\(name)")
            #expect(try catalog.placedItem(sha256Prefix: "A000") == nil, "\(name): lowercase hex only")
            let second = Self.item("two.mp3", sha256: "a0" + String(repeating: "1", count: 62))
            try catalog.markPlaced(try catalog.beginPlacing(second))
            #expect(try catalog.placedItem(sha256Prefix: "a0") == nil, "\(name): two items start so")
            #expect(try catalog.placedItem(sha256Prefix: "a00") == first, "\(name)")

            // A folder's member lists under its own path with the item's tags.
            try catalog.addMember(path: "Mix/01 one.mp3", sha256: first.sha256)
            #expect(try catalog.isMember("Mix/01 one.mp3") && !catalog.isMember("Show/one.mp3"), "\(name)")
            #expect(try catalog.members(sha256: first.sha256) == ["Mix/01 one.mp3"], "\(name)")
            var member = first
            member.path = "Mix/01 one.mp3"
            member.addedAt = try #require(try catalog.items().last).addedAt
            #expect(try catalog.items() == [first, second, member], "\(name)")
            #expect(try catalog.isPathTaken("Mix/01 one.mp3"), "\(name)")
            // The item goes: its member takes its row.
            #expect(try catalog.promoteMember(of: first) == "Mix/01 one.mp3", "\(name)")
            #expect(try catalog.items().map(\.path) == ["Mix/01 one.mp3", "two.mp3"], "\(name)")
            #expect(try catalog.promoteMember(of: second) == nil, "\(name)")
            try catalog.forget(path: "two.mp3")
            #expect(try catalog.items().map(\.path) == ["Mix/01 one.mp3"], "\(name)")

            // An archive's folder, with LIKE's wildcards in its name taken literally.
            let zipped = Self.item("Books/a_b%/01.mp3", sha256: Self.hex("b"))
            try catalog.markPlaced(try catalog.beginPlacing(zipped, archiveSHA256: Self.hex("c")))
            #expect(try catalog.folderHoldsArchive("Books/a_b%", archiveSHA256: Self.hex("c")), "\(name)")
            #expect(try !catalog.folderHoldsArchive("Books/aXbY", archiveSHA256: Self.hex("c")), "\(name)")
            #expect(try !catalog.folderHoldsArchive("Books/a_b%", archiveSHA256: Self.hex("d")), "\(name)")

            // Rejections, newest first, as many as asked.
            for index in 1...3 {
                try catalog.record(Rejection(fileName: "bad\(index).txt", reason: "not media", sha256: nil, sourceURL: nil,
                                             movedTo: "rejected/bad\(index).txt", rejectedAt: "2026-12-06T09:00:0\(index).000Z"))
            }
            #expect(try catalog.recentRejections(limit: 2).map(\.fileName) == ["bad3.txt", "bad2.txt"], "\(name)")
            #expect(try catalog.recentRejections().first?.movedTo == "rejected/bad3.txt", "\(name)")

            // The same content twice is refused by the table itself.
            #expect(throws: (any Error).self, "\(name): SHA-256 is unique") {
                _ = try catalog.beginPlacing(Self.item("again.mp3", sha256: Self.hex("b")))
            }

            // Repairs: a row left placing whose file arrived becomes placed, one whose file did not goes.
            let library = folder.url.appendingPathComponent("library", isDirectory: true)
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            let bytes = Data("the placed file".utf8)
            try bytes.write(to: library.appendingPathComponent("arrived.mp3"))
            _ = try catalog.beginPlacing(Self.item("arrived.mp3", sha256: SHA256.hex(ofFile: library.appendingPathComponent("arrived.mp3"))))
            _ = try catalog.beginPlacing(Self.item("lost.mp3", sha256: Self.hex("e")))
            #expect(try catalog.placingRows().count == 2, "\(name)")
            #expect(try catalog.reconcile(libraryRoot: library) == 2, "\(name)")
            #expect(try catalog.placingRows().isEmpty, "\(name)")
            #expect(try catalog.items().map(\.path).contains("arrived.mp3") && catalog.item(sha256: Self.hex("e")) == nil, "\(name)")

            // An absolute path below the library folder is made relative.
            let absolute = Self.item(library.appendingPathComponent("abs.mp3").path, sha256: Self.hex("f"))
            try catalog.markPlaced(try catalog.beginPlacing(absolute))
            #expect(try catalog.absolutePathRows().map(\.path) == [absolute.path], "\(name)")
            #expect(try catalog.relativizePaths(libraryRoot: library) == 1, "\(name)")
            #expect(try catalog.item(sha256: Self.hex("f"))?.path == "abs.mp3", "\(name)")
        }
    }

    /// The lock is one importer at a time into the library; a thread that holds it may ask again
    /// (no deadlock), and its catalog calls run on the lock's own connection (four threads on a
    /// pool of two). `library.sqlite`'s lock is its state folder's; the store's spans servers, so
    /// there each thread is a server of its own (its own state folder, one library folder).
    @Test func theImportLockExcludesAndNests() throws {
        for (name, catalog, folder, drop) in try Self.catalogs() {
            defer { drop() }
            let library = folder.url.appendingPathComponent("library", isDirectory: true)
            let states = try (0..<4).map { index in
                let state = StateFolder(url: name == "postgres" ? folder.url.appendingPathComponent("server-\(index)") : folder.home, library: library)
                try state.ensure()
                return state
            }
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            let inside = SectionCounter()
            let shared = Shared(catalog: catalog)
            let threads = (0..<4).map { index in
                Thread {
                    let catalog = shared.catalog
                    try? catalog.withImportLock(state: states[index]) {
                        inside.enter()
                        defer { inside.leave() }
                        _ = try catalog.items()
                        _ = try catalog.beginPlacing(Self.item("t\(index).mp3", sha256: Self.hex(Character(String(index)))))
                        // Held a little longer than its statements take, so an unlocked
                        // section would overlap another (this is the overlap window, not a wait).
                        Thread.sleep(forTimeInterval: 0.02)
                    }
                }
            }
            threads.forEach { $0.start() }
            #expect(eventually(within: 30) { inside.finished == 4 }, "\(name): \(inside.finished) of 4 imports ran")
            #expect(inside.most == 1, "\(name): never two at once")
            let nested = try catalog.withImportLock(state: states[0]) {
                try catalog.withImportLock(state: states[0]) { try catalog.placingRows().count }
            }
            #expect(nested == 4, "\(name)")
        }
    }

    /// A PostgreSQL row that is not what the catalog wrote is an error, not a default.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aMalformedRowIsAnError() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let catalog = PostgresCatalog(database: try schema.open(connections: 1))
        try catalog.markPlaced(try catalog.beginPlacing(Self.item("a.mp3", sha256: Self.hex("a"))))
        try schema.connect().execute("UPDATE piper_library_items SET chapters = 'not json'")
        #expect(throws: StoreError.self) { _ = try catalog.items() }
    }
}

/// A catalog handed to threads: `LibraryCatalog`'s one connection is a `DatabaseQueue`, which
/// runs one call at a time; `PostgresCatalog` is Sendable.
struct Shared: @unchecked Sendable {
    let catalog: any CatalogStore
}

/// How many threads are inside a section, and the most at once.
final class SectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var peak = 0
    private var done = 0

    func enter() { lock.withLock { now += 1; peak = max(peak, now) } }
    func leave() { lock.withLock { now -= 1; done += 1 } }
    var finished: Int { lock.withLock { done } }
    var most: Int { lock.withLock { peak } }
}
