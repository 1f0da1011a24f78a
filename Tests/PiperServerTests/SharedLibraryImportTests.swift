import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport
@testable import PiperServer

/// The importer over the store's catalog (`PostgresCatalog`), in-process: two servers' state
/// folders, one library folder, one PostgreSQL schema of the test's own.
@Suite(.ownThread) struct SharedLibraryImportTests {
    /// A server's state folder whose library is `library`, with `sample.mp3` in its inbox.
    static func server(library: URL, landing name: String = "sample.mp3") throws -> (folder: TemporaryFolder, state: StateFolder) {
        let folder = try TemporaryFolder("shared-import")
        let state = StateFolder(url: folder.home, library: library)
        try state.ensure(state.inbox)
        try FileManager.default.copyItem(at: mediaFixtures.appendingPathComponent("sample.mp3"), to: state.inbox.appendingPathComponent(name))
        return (folder, state)
    }

    /// A server whose network share is not mounted sees an empty local folder where the library
    /// should be: it imports nothing and keeps the shared rows (a missing file would otherwise
    /// read as one removed by hand and lose its row on every server); once mounted it imports.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aServerWithoutTheSharedFolderMountedImportsNothing() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let shared = try TemporaryFolder("shared-library", createHome: false)
        let a = try Self.server(library: shared.url)
        let imported = try LibraryImporter(state: a.state, catalog: PostgresCatalog(database: try schema.open(connections: 1))).importPending()
        #expect(imported.map(\.result) == [.imported(path: "sample.mp3")])
        #expect(FileManager.default.fileExists(atPath: shared.url.appendingPathComponent(LibraryMount.markerName).path))

        let unmounted = try TemporaryFolder("unmounted", createHome: false)
        let b = try Self.server(library: unmounted.url, landing: "again.mp3")
        let catalog = PostgresCatalog(database: try schema.open(connections: 1))
        #expect(throws: LibraryMountError.self) { _ = try LibraryImporter(state: b.state, catalog: catalog).importPending() }
        #expect(try catalog.items().map(\.path) == ["sample.mp3"], "the shared row stays")
        #expect(FileManager.default.fileExists(atPath: b.state.inbox.appendingPathComponent("again.mp3").path), "the file waits in B's inbox")
        #expect(try FileManager.default.contentsOfDirectory(atPath: unmounted.url.path).isEmpty, "nothing written in the empty folder")

        let mounted = StateFolder(url: b.folder.home, library: shared.url)
        #expect(try LibraryImporter(state: mounted, catalog: catalog).importPending().map(\.result) == [.duplicate(of: "sample.mp3")])
    }

    /// Two importers (two servers' agents) on the same bytes at once, each with a pool of one
    /// connection: one imports, the other finds the duplicate; one row, one file.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func twoImportersOfTheSameBytesImportOnce() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let shared = try TemporaryFolder("shared-library", createHome: false)
        let servers = try (0..<2).map { _ in try Self.server(library: shared.url) }
        let importers = try servers.map { try LibraryImporter(state: $0.state, catalog: PostgresCatalog(database: try schema.open(connections: 1))) }
        let results = ImportResults()
        DispatchQueue.concurrentPerform(iterations: importers.count) { index in
            do { results.add(try importers[index].importPending().map(\.result)) } catch { results.add([.failed(reason: "\(error)")]) }
        }
        #expect(results.all.sorted { "\($0)" < "\($1)" } == [[.duplicate(of: "sample.mp3")], [.imported(path: "sample.mp3")]], "\(results.all)")
        #expect(try PostgresCatalog(database: try schema.open(connections: 1)).items().map(\.path) == ["sample.mp3"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.url.path).filter { !$0.hasPrefix(".") } == ["sample.mp3"])
    }

    /// A database made by the build before the catalog (its whole history up to the step that
    /// adds it) gains the catalog's tables in place, and keeps what it held.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aDatabaseFromBeforeTheCatalogMigratesInPlace() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let before = Array(PostgresDatabase.migrations.prefix { $0.name != "library catalog" })
        try #require(before.count < PostgresDatabase.migrations.count)
        let old = try PostgresDatabase(url: schema.url, connections: 1, migrations: before)
        #expect(try PostgresCredentials(database: old).secret(named: "feed-secret", proposing: "kept") == "kept")
        #expect(try PostgresMigrationTests.history(schema).count == before.count)

        let database = try schema.open(connections: 1)
        try PostgresMigrationTests.expectFullHistory(schema)
        #expect(try PostgresCredentials(database: database).storedSecret(named: "feed-secret") == "kept")
        let catalog = PostgresCatalog(database: database)
        let item = CatalogContractTests.item("a.mp3", sha256: CatalogContractTests.hex("a"))
        try catalog.markPlaced(try catalog.beginPlacing(item))
        #expect(try catalog.items() == [item])
    }
}

/// Each importer's outcomes, collected across threads.
final class ImportResults: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [[ImportOutcome.Result]] = []
    func add(_ results: [ImportOutcome.Result]) { lock.withLock { collected.append(results) } }
    var all: [[ImportOutcome.Result]] { lock.withLock { collected } }
}
