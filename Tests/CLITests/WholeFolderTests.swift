import Foundation
import PiperTestSupport
import Testing

/// A playlist or feed folder holds every item asked for, even when an item is already in the
/// library elsewhere (by its link, or as the same bytes under another name): the folder gets its
/// own file (a hard link here, the library being on one file system), the catalog records it,
/// and removing either file leaves the other. Through the built `piper`, real files, a local server.
@Suite(.ownThread, .timeLimit(.minutes(3))) struct WholeFolderTests {
    static let fixtures = AgentLoadTests.fixtures

    func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    func inode(_ url: URL) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.uint64Value
    }

    @Test func aPlaylistWhoseItemsAreInTheLibraryAlreadyIsWhole() throws {
        let flac = try Data(contentsOf: Self.fixtures.appendingPathComponent("sample.flac"))
        let m3u = "#EXTM3U\n#PLAYLIST:Book\n/sample.ogg\n/copies/renamed.flac\n/sample.opus\n"
        let server = try TestHTTPServer(routes: [
            "/book.m3u": .init(headers: ["Content-Type": "audio/x-mpegurl"], body: m3u),
        ], staticRoot: Self.fixtures)
        defer { server.stop() }
        try server.route("/copies/renamed.flac", .init(body: [UInt8](flac), contentType: "audio/flac"))
        let home = PiperBinary.freshHome()
        let library = home.appendingPathComponent("library")

        // In the library already: the first item by its own link, the second as the same bytes
        // shared under another name.
        for path in ["/sample.ogg", "/sample.flac"] {
            let alone = try PiperBinary.run(["share", "--wait", server.url(path).absoluteString], home: home)
            #expect(alone.status == 0, "\(alone.stderr)")
        }
        let shared = try PiperBinary.run(["share", "--wait", "--into", "Audiobooks", server.url("/book.m3u").absoluteString], home: home)
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(shared.stderr.contains("1 already in the library, kept in the folder too"), "\(shared.stderr)")
        let folder = library.appendingPathComponent("Audiobooks/Book")
        #expect(names(folder) == ["01 sample.ogg", "02 renamed.flac", "03 sample.opus"], "every item, in order: \(names(folder))")
        #expect(inode(folder.appendingPathComponent("01 sample.ogg")) == inode(library.appendingPathComponent("sample.ogg")), "a hard link")
        #expect(inode(folder.appendingPathComponent("02 renamed.flac")) == inode(library.appendingPathComponent("sample.flac")), "a hard link")
        #expect(try server.requests("/sample.ogg").filter { $0.method == "GET" }.count == 1, "the item in the library by link is not fetched again")

        let listing = try PiperBinary.run(["downloads"], home: home)
        #expect(listing.stdout.contains("playlist Audiobooks/Book: 3 of 3 in the library (complete)"), "\(listing.stdout)")
        let catalog = try PiperBinary.run(["library", "--json"], home: home)
        for path in ["Audiobooks/Book/01 sample.ogg", "Audiobooks/Book/02 renamed.flac", "sample.ogg", "sample.flac"] {
            #expect(catalog.stdout.contains("\"path\":\"\(path)\""), "\(path) is listed: \(catalog.stdout)")
        }

        // Removing the original keeps the folder's file (and its catalog entry); removing the
        // folder's file keeps the original.
        #expect(try PiperBinary.run(["library", "rm", "sample.ogg"], home: home).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("01 sample.ogg").path))
        #expect(try PiperBinary.run(["library", "--json"], home: home).stdout.contains("\"path\":\"Audiobooks/Book/01 sample.ogg\""))
        #expect(try PiperBinary.run(["library", "rm", "Audiobooks/Book/02 renamed.flac"], home: home).status == 0)
        #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent("sample.flac").path))
        let after = try PiperBinary.run(["library", "--json"], home: home).stdout
        #expect(after.contains("\"path\":\"sample.flac\"") && !after.contains("02 renamed.flac"), "\(after)")
    }

    @Test func newestNGivesNOrSaysWhyFewerAndAnAllPresentFeedIsAFolderToo() throws {
        let feed = """
            <rss version="2.0"><channel><title>Ocean Weekly Podcast</title>
            <item><title>Two</title><enclosure url="/sample.mp3" type="audio/mpeg"/></item>
            <item><title>One</title><enclosure url="/sample.m4a" type="audio/mp4"/></item>
            </channel></rss>
            """
        let server = try TestHTTPServer(routes: ["/feed": .init(headers: ["Content-Type": "application/rss+xml"], body: feed)],
                                        staticRoot: Self.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let first = try PiperBinary.run(["share", "--wait", "--newest", "3", server.url("/feed").absoluteString], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("The feed lists only 2 episodes."), "\(first.stderr)")

        // Shared again into another folder: nothing is downloaded, and that folder exists and is whole.
        let again = try PiperBinary.run(["share", "--wait", "--into", "Archive", "--newest", "2", server.url("/feed").absoluteString], home: home)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("All 2 already in the library, now also in Archive/Ocean Weekly Podcast."), "\(again.stderr)")
        #expect(names(home.appendingPathComponent("library/Archive/Ocean Weekly Podcast")) == ["01 sample.mp3", "02 sample.m4a"])
        #expect(try server.requests("/sample.mp3").filter { $0.method == "GET" }.count == 1)
        let listing = try PiperBinary.run(["downloads"], home: home)
        #expect(listing.stdout.contains("playlist Archive/Ocean Weekly Podcast: 2 of 2 in the library (complete)"), "\(listing.stdout)")
    }

    /// A playlist shared into a second folder while the first share still downloads its file:
    /// the job bound for the first folder does not stand in for the second, so both folders get
    /// the file (the second download found to be the same bytes, a hard link of the first).
    @Test func aPlaylistSharedIntoTwoFoldersWhileItDownloadsFillsBoth() throws {
        let mp3 = try Data(contentsOf: Self.fixtures.appendingPathComponent("sample.mp3"))
        let m3u = "#EXTM3U\n#PLAYLIST:Show\n/slow/sample.mp3\n/sample.m4a\n"
        let server = try TestHTTPServer(routes: ["/show.m3u": .init(headers: ["Content-Type": "audio/x-mpegurl"], body: m3u)],
                                        staticRoot: Self.fixtures)
        defer { server.stop() }
        // About two seconds a download: the second share comes while the first's is running.
        try server.route("/slow/sample.mp3", .init(body: [UInt8](mp3), contentType: "audio/mpeg"), faults: [.drip(chunk: 2048, interval: 0.15)])
        let home = PiperBinary.freshHome()
        let library = home.appendingPathComponent("library")

        let first = try PiperBinary.run(["share", server.url("/show.m3u").absoluteString], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try PiperBinary.run(["share", "--wait", "--into", "Archive", server.url("/show.m3u").absoluteString], home: home)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(names(library.appendingPathComponent("Archive/Show")) == ["01 sample.mp3", "02 sample.m4a"])
        let deadline = Date().addingTimeInterval(60)
        while names(library.appendingPathComponent("Show")).count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(names(library.appendingPathComponent("Show")) == ["01 sample.mp3", "02 sample.m4a"])
        #expect(inode(library.appendingPathComponent("Show/01 sample.mp3")) == inode(library.appendingPathComponent("Archive/Show/01 sample.mp3")))
        let listing = try PiperBinary.run(["downloads"], home: home)
        #expect(listing.stdout.contains("playlist Show: 2 of 2 in the library (complete)"), "\(listing.stdout)")
        #expect(listing.stdout.contains("playlist Archive/Show: 2 of 2 in the library (complete)"), "\(listing.stdout)")
    }
}
