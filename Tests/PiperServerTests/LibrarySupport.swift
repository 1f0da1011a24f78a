import Foundation
import MediaImport
import PiperCore
import Testing
@testable import PiperServer

let mediaFixtures = packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

/// A `piper serve` whose library holds the given fixtures, imported by the real importer into
/// the server's state folder (as its agent would).
final class LibraryServer {
    let server: ShareServer
    let items: [LibraryItem]

    init(fixtures: [(name: String, folder: String?)], arguments: [String] = []) throws {
        server = try ShareServer(arguments)
        let state = server.state
        try state.ensure(state.inbox)
        for fixture in fixtures {
            let landed = state.inbox.appendingPathComponent(fixture.name)
            try FileManager.default.copyItem(at: mediaFixtures.appendingPathComponent(fixture.name), to: landed)
            let importer = try LibraryImporter(state: state)
            let outcomes = try importer.importPending(hints: { _ in ImportHints(folder: fixture.folder, sourceURL: "https://example.com/\(fixture.name)") },
                                                      landed: { _ in true })
            try #require(outcomes.count == 1, "\(outcomes)")
        }
        items = try LibraryListing.read(state: state).items
        try #require(items.count == fixtures.count)
    }

    var url: String { server.url }

    func item(_ original: String) throws -> LibraryItem { try #require(items.first { $0.originalName == original }) }
    func id(_ original: String) throws -> String { LibraryShelf.id(of: try item(original)) }
    func file(_ original: String) throws -> Data {
        try Data(contentsOf: server.state.library.appendingPathComponent(try item(original).path))
    }
    func feedSecret() throws -> String { try FeedSecret(state: server.state).current() }
}
