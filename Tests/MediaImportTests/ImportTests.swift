import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

@Suite(.ownThread) struct ImportTests {
    @Test func everyFixtureImportsOrIsRejected() throws {
        let temp = try TempHome(inbox: true)
        for facts in realFixtures { try temp.land(fixture(facts.file)) }
        for impostor in impostors { try temp.land(fixture(impostor.file)) }
        let importer = try LibraryImporter(state: temp.state)
        let outcomes = try importer.importPending()
        #expect(outcomes.count == realFixtures.count + impostors.count)
        #expect(temp.inboxFiles().isEmpty)

        let items = Dictionary(uniqueKeysWithValues: try importer.catalog.items().map { ($0.originalName, $0) })
        for facts in realFixtures {
            let item = try #require(items[facts.file], "\(facts.file) missing")
            #expect(item.path == facts.file)
            #expect(item.title == facts.title)
            #expect(item.author == facts.author)
            #expect(abs((item.duration ?? -1) - facts.duration) < 0.01, "\(facts.file)")
            #expect(item.sha256 == (try SHA256.hex(ofFile: fixture(facts.file))))
        }
        #expect(temp.libraryFiles() == realFixtures.map(\.file).sorted())

        let rejections = Dictionary(uniqueKeysWithValues: try importer.catalog.recentRejections().map { ($0.fileName, $0) })
        for impostor in impostors {
            let outcome = try #require(outcomes.first { $0.fileName == impostor.file })
            guard case .rejected(let reason) = outcome.result else { Issue.record("\(impostor.file) not rejected"); continue }
            #expect(reason.hasPrefix(impostor.reason))
            #expect(rejections[impostor.file]?.reason == reason)
            #expect(rejections[impostor.file]?.movedTo == "rejected/\(impostor.file)")
        }
        #expect(temp.files(under: temp.state.rejectedFolder) == impostors.map(\.file).sorted())
        #expect(try importer.importPending().isEmpty, "a second run finds nothing to do")
    }

    @Test func m4bKeepsItsChaptersInTheCatalog() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.m4b"))
        let importer = try LibraryImporter(state: temp.state)
        _ = try importer.importPending()
        let item = try #require(try importer.catalog.items().first)
        #expect(item.chapters == [Chapter(title: "Chapter One", start: 0), Chapter(title: "Chapter Two", start: 2.5)])
    }

    @Test func zipBecomesAFolderWithTwoTracks() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("two-part-book.zip"))
        let importer = try LibraryImporter(state: temp.state)
        let outcome = try #require(try importer.importPending().first)
        #expect(outcome.result == .imported(path: "two-part-book"))
        #expect(outcome.entries.count == 2)
        #expect(temp.libraryFiles() == ["two-part-book/01 Part One.mp3", "two-part-book/02 Part Two.m4a"])
        let titles = try importer.catalog.items().map(\.title).sorted()
        #expect(titles == ["Episode One", "Short Story"])
        #expect(temp.inboxFiles().isEmpty)
        #expect(temp.files(under: temp.state.importTemp).isEmpty)
    }

    /// A two-part book whose first part was shared alone before: the book's folder still holds
    /// both parts, the first as a hard link of the library's file, and removing either leaves
    /// the other. Shared again when every part is in the library, the answer is that folder.
    @Test func zipWithAPartInTheLibraryAlreadyIsAWholeFolder() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.mp3"))
        let importer = try LibraryImporter(state: temp.state)
        #expect(try importer.importPending().map(\.result) == [.imported(path: "sample.mp3")])
        try temp.land(fixture("two-part-book.zip"))
        let outcome = try #require(try importer.importPending().first)
        #expect(outcome.result == .imported(path: "two-part-book"))
        #expect(outcome.entries.map(\.result) == [.duplicate(of: "two-part-book/01 Part One.mp3"),
                                                  .imported(path: "two-part-book/02 Part Two.m4a")])
        #expect(temp.libraryFiles() == ["sample.mp3", "two-part-book/01 Part One.mp3", "two-part-book/02 Part Two.m4a"])
        let inode = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: temp.state.library.appendingPathComponent(path).path)[.systemFileNumber] as? NSNumber)?.uint64Value
        }
        #expect(inode("two-part-book/01 Part One.mp3") == inode("sample.mp3"), "a hard link, not a second download's bytes")
        let paths = try importer.catalog.items().map(\.path)
        #expect(Set(paths) == ["sample.mp3", "two-part-book/01 Part One.mp3", "two-part-book/02 Part Two.m4a"])

        // The same book shared again into another folder: nothing new, a whole folder all the same.
        try temp.land(fixture("two-part-book.zip"))
        let again = try #require(try importer.importPending(placement: { _ in "Books" }).first)
        #expect(again.result == .duplicate(of: "Books/two-part-book"))
        #expect(temp.libraryFiles().filter { $0.hasPrefix("Books/") } == ["Books/two-part-book/01 Part One.mp3",
                                                                           "Books/two-part-book/02 Part Two.m4a"])

        // The original goes: the folder keeps its part (the catalog hands the row to it).
        try importer.remove("sample.mp3")
        #expect(temp.libraryFiles().contains("two-part-book/01 Part One.mp3"))
        #expect(try importer.catalog.items().map(\.path).contains("two-part-book/01 Part One.mp3"))
        // A member goes alone: the book's own part stays.
        try importer.remove("Books/two-part-book/02 Part Two.m4a")
        #expect(temp.libraryFiles().contains("two-part-book/02 Part Two.m4a"))
        #expect(!temp.libraryFiles().contains("Books/two-part-book/02 Part Two.m4a"))
    }

    @Test func zipSlipArchiveWritesNothingOutsideTheLibrary() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("zip-slip.zip"))
        let importer = try LibraryImporter(state: temp.state)
        let outcome = try #require(try importer.importPending().first)
        #expect(outcome.result == .imported(path: "zip-slip"))
        #expect(temp.libraryFiles() == ["zip-slip/track.mp3"])
        // Only the catalog, the lock and the library's one file exist anywhere under the root.
        let everything = temp.files(under: temp.root).filter { !$0.hasPrefix("home/library.sqlite") }
        #expect(everything == ["home/import.lock", "home/library/zip-slip/track.mp3"])
        let reasons = try importer.catalog.recentRejections().map(\.fileName).sorted()
        #expect(reasons == ["zip-slip.zip: ../../escaped.mp3", "zip-slip.zip: /tmp/absolute-escape.mp3"])
    }

    @Test func placementPutsTheFileInItsFolder() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.flac"))
        try temp.land(fixture("two-part-book.zip"))
        let importer = try LibraryImporter(state: temp.state)
        _ = try importer.importPending(placement: { name in name.hasSuffix(".zip") ? "Books" : "Podcasts/../Daily" })
        #expect(temp.libraryFiles() == ["Books/two-part-book/01 Part One.mp3", "Books/two-part-book/02 Part Two.m4a",
                                        "Podcasts/Daily/sample.flac"])
    }

    @Test func sidecarGivesFolderAndSourceURL() throws {
        let temp = try TempHome(inbox: true)
        let hints = ImportHints(folder: "Talks", sourceURL: "https://example.com/talk.mp3")
        try temp.land(data: try JSONEncoder().encode(hints), as: ".talk.mp3.piper.json")
        try temp.land(fixture("sample.mp3"), as: "talk.mp3")
        let importer = try LibraryImporter(state: temp.state)
        let outcomes = try importer.importPending()
        #expect(outcomes.map(\.result) == [.imported(path: "Talks/talk.mp3")])
        let item = try #require(try importer.catalog.items().first)
        #expect(item.sourceURL == "https://example.com/talk.mp3")
        #expect(temp.inboxFiles().isEmpty, "the sidecar goes with its file")
    }

    /// Two downloads of a playlist's item, bound for two folders, land in the inbox at once under
    /// one name: the second lands as `01 sample-1.mp3`, yet each folder's file is `01 sample.mp3`
    /// (the second a hard link of the first), because the sidecar keeps the name it asked for.
    @Test func aNameTheInboxHadTakenIsNotTheLibrarys() throws {
        let temp = try TempHome(inbox: true)
        try temp.state.ensure(temp.state.downloads)
        var landed: [String] = []
        for folder in ["Show", "Archive/Show"] {
            let partial = temp.state.downloads.appendingPathComponent("\(UUID().uuidString).part")
            try FileManager.default.copyItem(at: fixture("sample.mp3"), to: partial)
            landed.append(try Landing.land(partial, as: "01 sample.mp3", into: temp.state.inbox,
                                           hints: ImportHints(folder: folder, sourceURL: "https://example.com/sample.mp3", wholeFolder: true)))
        }
        #expect(landed == ["01 sample.mp3", "01 sample-1.mp3"])
        let importer = try LibraryImporter(state: temp.state)
        // Either may be imported first (the inbox is read in no set order); the other is its copy.
        let results = try importer.importPending().map(\.result)
        #expect(results.count == 2)
        #expect(results.contains(.imported(path: "Show/01 sample.mp3")) || results.contains(.imported(path: "Archive/Show/01 sample.mp3")), "\(results)")
        #expect(results.contains(.duplicate(of: "Show/01 sample.mp3")) || results.contains(.duplicate(of: "Archive/Show/01 sample.mp3")), "\(results)")
        #expect(temp.libraryFiles() == ["Archive/Show/01 sample.mp3", "Show/01 sample.mp3"])
        #expect(temp.inboxFiles().isEmpty)
    }

    @Test func theRealFormatFixesTheExtension() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.m4a"), as: "episode.mp3")
        try temp.land(fixture("sample.wav"), as: "download")
        let importer = try LibraryImporter(state: temp.state)
        _ = try importer.importPending()
        #expect(temp.libraryFiles() == ["download.wav", "episode.m4a"])
        let titles = try importer.catalog.items().map(\.title).sorted()
        #expect(titles == ["Short Story", "download"])
    }

    @Test func tempAndDotNamesAreLeftAlone() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.mp3"), as: ".hidden.mp3")
        try temp.land(fixture("sample.mp3"), as: "episode.mp3.part")
        try temp.land(fixture("sample.mp3"), as: "episode.tmp")
        let importer = try LibraryImporter(state: temp.state)
        #expect(try importer.importPending().isEmpty)
        #expect(temp.inboxFiles() == [".hidden.mp3", "episode.mp3.part", "episode.tmp"])
    }

    @Test func linksAreRejectedAndFoldersLeftAlone() throws {
        let temp = try TempHome(inbox: true)
        try FileManager.default.createSymbolicLink(at: temp.state.inbox.appendingPathComponent("link.mp3"),
                                                   withDestinationURL: fixture("sample.mp3"))
        try FileManager.default.createDirectory(at: temp.state.inbox.appendingPathComponent("Some Folder"), withIntermediateDirectories: false)
        let importer = try LibraryImporter(state: temp.state)
        let outcomes = try importer.importPending()
        #expect(outcomes.map(\.result) == [.rejected(reason: "not a regular file (link, device or pipe)")])
        #expect(temp.inboxFiles() == ["Some Folder"])
        #expect(temp.libraryFiles().isEmpty)
    }

    @Test func listingOfAFreshStateIsEmptyAndCreatesNothing() throws {
        let temp = try TempHome(inbox: true)
        let listing = try LibraryListing.read(state: temp.state)
        #expect(listing == LibraryListing(items: [], rejections: []))
        #expect(!FileManager.default.fileExists(atPath: temp.state.libraryCatalog.path))
    }

    @Test func listingShowsItemsAndRejections() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.m4b"), as: "book.m4b")
        try temp.land(fixture("error-page-named.mp3"))
        _ = try LibraryImporter(state: temp.state).importPending()
        let listing = try LibraryListing.read(state: temp.state)
        #expect(listing.items.map(\.path) == ["book.m4b"])
        #expect(listing.items.first?.chapters.count == 2)
        #expect(listing.rejections.map(\.fileName) == ["error-page-named.mp3"])
        let json = String(decoding: try JSONEncoder().encode(listing), as: UTF8.self)
        #expect(json.contains("\"reason\":\"HTML page"))
        #expect(json.contains("\"sourceURL\":null"), "absent values are null, not missing")
        let back = try JSONDecoder().decode(LibraryListing.self, from: Data(json.utf8))
        #expect(back == listing)
    }
}
