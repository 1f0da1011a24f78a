import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

let mediaFixtures = packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

/// A `piper serve` whose library holds the given fixtures, imported by the real importer into
/// the server's state folder (as its agent would).
final class LibraryServer {
    let server: ShareServer
    let items: [LibraryItem]

    /// `fixtures` from ../shared/fixtures/media, or with `data` a file made by the test. Each
    /// lands in the inbox (its folder and source link in the sidecar the importer reads), and
    /// the agent running inside `piper serve` imports it, one after another.
    init(fixtures: [(name: String, folder: String?)], made: [(name: String, data: Data)] = [],
         placed: [(name: String, folder: String, data: Data)] = [], arguments: [String] = []) throws {
        server = try ShareServer(arguments)
        let state = server.state
        try state.ensure(state.inbox)
        let all = fixtures.map { ($0.name, $0.folder, nil as Data?) } + made.map { ($0.name, nil as String?, $0.data as Data?) }
            + placed.map { ($0.name, $0.folder as String?, $0.data as Data?) }
        for (index, (name, folder, data)) in all.enumerated() {
            let staging = server.home.appendingPathComponent("staging-\(name)")
            if let data { try data.write(to: staging) } else {
                try FileManager.default.copyItem(at: mediaFixtures.appendingPathComponent(name), to: staging)
            }
            let hints = ImportHints(folder: folder, sourceURL: "https://example.com/\(name)")
            try JSONEncoder().encode(hints).write(to: state.inbox.appendingPathComponent(".\(name).piper.json"))
            try FileManager.default.moveItem(at: staging, to: state.inbox.appendingPathComponent(name))
            let imported = eventually(within: 60) { ((try? LibraryListing.read(state: state).items.count) ?? 0) == index + 1 }
            try #require(imported, "\(name) was not imported: \(server.serve.stderr)")
        }
        items = try LibraryListing.read(state: state).items
    }

    var url: String { server.url }

    func item(_ original: String) throws -> LibraryItem { try #require(items.first { $0.originalName == original }) }
    func id(_ original: String) throws -> String { LibraryShelf.id(of: try item(original)) }
    func file(_ original: String) throws -> Data {
        try Data(contentsOf: server.state.library.appendingPathComponent(try item(original).path))
    }
    func feedSecret() throws -> String { try FeedSecret(state: server.state).current() }
}

/// Media files with cover art, made from the fixtures (none of which has one).
enum CoveredMedia {
    /// A 1×1 PNG.
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==") ?? Data())

    /// sample.mp3 with its ID3v2.3 tag replaced by one holding a title and an APIC frame whose
    /// MIME type and picture bytes are `mime` and `picture` (a PNG by default; an attacker's
    /// file says what it likes).
    static func mp3(title: String = "Covered Episode", mime: String = "image/png", picture: [UInt8] = png,
                    text: [(id: String, value: String)] = []) throws -> Data {
        let original = [UInt8](try Data(contentsOf: mediaFixtures.appendingPathComponent("sample.mp3")))
        let oldSize = Int(original[6] & 0x7F) << 21 | Int(original[7] & 0x7F) << 14 | Int(original[8] & 0x7F) << 7 | Int(original[9] & 0x7F)
        let audio = original[(10 + oldSize)...]
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            let n = body.count
            return Array(id.utf8) + [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), 0, 0] + body
        }
        let frames = frame("TIT2", [0] + Array(title.utf8))
            + frame("APIC", [0] + Array(mime.utf8) + [0, 3] + Array("cover".utf8) + [0] + picture)
            + text.flatMap { frame($0.id, [0] + Array($0.value.utf8)) }
        let n = frames.count
        let header: [UInt8] = Array("ID3".utf8) + [3, 0, 0, UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
        return Data(header + frames + audio)
    }
}
