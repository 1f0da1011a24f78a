import Foundation
import PiperCore
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MediaImport

@Suite(.ownThread) struct LibraryTests {
    @Test func sameContentTwiceIsADuplicate() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("sample.mp3"))
        #expect(try importer.importPending().map(\.result) == [.imported(path: "sample.mp3")])
        try temp.land(fixture("sample.mp3"), as: "again.mp3")
        let second = try importer.importPending()
        #expect(second.map(\.result) == [.duplicate(of: "sample.mp3")])
        #expect(second.first?.sha256 == (try SHA256.hex(ofFile: fixture("sample.mp3"))))
        #expect(temp.inboxFiles().isEmpty)
        #expect(temp.libraryFiles() == ["sample.mp3"])
        #expect(try importer.catalog.items().count == 1)
    }

    @Test func aFileDeletedFromTheLibraryCanBeImportedAgain() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("sample.mp3"))
        _ = try importer.importPending()
        try FileManager.default.removeItem(at: temp.state.library.appendingPathComponent("sample.mp3"))
        try temp.land(fixture("sample.mp3"), as: "back.mp3")
        #expect(try importer.importPending().map(\.result) == [.imported(path: "back.mp3")])
        #expect(try importer.catalog.items().map(\.path) == ["back.mp3"])
    }

    @Test func nameCollisionGetsASuffix() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("sample.mp3"))
        _ = try importer.importPending()
        var other = try Data(contentsOf: fixture("sample.mp3"))
        other.append(contentsOf: Array("different tail".utf8))
        try temp.land(data: other, as: "sample.mp3")
        try temp.land(data: other + Data([1]), as: "sample-1.mp3")
        let outcomes = try importer.importPending()
        // Oldest first: the inbox's sample.mp3 takes the first free name, then sample-1.mp3 its own.
        #expect(outcomes.map(\.result) == [.imported(path: "sample-1.mp3"), .imported(path: "sample-1-1.mp3")])
        #expect(temp.libraryFiles() == ["sample-1-1.mp3", "sample-1.mp3", "sample.mp3"])
    }

    @Test func sameZipTwiceIsADuplicateFolder() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("two-part-book.zip"))
        _ = try importer.importPending()
        try temp.land(fixture("two-part-book.zip"))
        let outcome = try #require(try importer.importPending().first)
        #expect(outcome.result == .duplicate(of: "two-part-book"))
        #expect(temp.libraryFiles().count == 2)
        #expect(temp.inboxFiles().isEmpty)
    }

    @Test func anInterruptedZipImportResumesInTheSameFolder() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("two-part-book.zip"))
        _ = try importer.importPending()
        // As if the run had died after the first track: drop the second, put the zip back.
        try FileManager.default.removeItem(at: temp.state.library.appendingPathComponent("two-part-book/02 Part Two.m4a"))
        try temp.land(fixture("two-part-book.zip"))
        let outcome = try #require(try importer.importPending().first)
        #expect(outcome.result == .imported(path: "two-part-book"))
        #expect(temp.libraryFiles() == ["two-part-book/01 Part One.mp3", "two-part-book/02 Part Two.m4a"])
        // A different zip with the same name gets its own folder.
        let other = temp.root.appendingPathComponent("other.zip")
        let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.write(sys.argv[2], 'Book/lossless.flac')"
        try #require(try python(script, arguments: [other.path, fixture("sample.flac").path]) == 0)
        try temp.land(other, as: "two-part-book.zip")
        #expect(try importer.importPending().first?.result == .imported(path: "two-part-book-1"))
        #expect(temp.libraryFiles().contains("two-part-book-1/lossless.flac"))
    }

    @Test func crashAfterTheMoveIsRepaired() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        // As if a run died between the rename and `placed`: the row says `placing`, the file is there.
        let sha = try SHA256.hex(ofFile: fixture("sample.mp3"))
        _ = try importer.catalog.beginPlacing(item(path: "sample.mp3", sha256: sha))
        try FileManager.default.copyItem(at: fixture("sample.mp3"), to: temp.state.library.appendingPathComponent("sample.mp3"))
        #expect(try importer.catalog.items().isEmpty)
        #expect(try importer.importPending().isEmpty)
        #expect(try importer.catalog.items().map(\.path) == ["sample.mp3"])
        // The same file arriving again is now a duplicate, not a second copy.
        try temp.land(fixture("sample.mp3"), as: "retry.mp3")
        #expect(try importer.importPending().map(\.result) == [.duplicate(of: "sample.mp3")])
    }

    @Test func crashBeforeTheMoveIsRetried() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        // As if a run died after inserting the row, before the rename: the file is still in the inbox.
        let sha = try SHA256.hex(ofFile: fixture("sample.mp3"))
        _ = try importer.catalog.beginPlacing(item(path: "sample.mp3", sha256: sha))
        try temp.land(fixture("sample.mp3"))
        #expect(try importer.importPending().map(\.result) == [.imported(path: "sample.mp3")])
        #expect(try importer.catalog.items().map(\.title) == ["Episode One"])
    }

    @Test func aStuckRowWhoseFileDiffersIsDropped() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        _ = try importer.catalog.beginPlacing(item(path: "sample.mp3", sha256: String(repeating: "0", count: 64)))
        try FileManager.default.copyItem(at: fixture("sample.mp3"), to: temp.state.library.appendingPathComponent("sample.mp3"))
        #expect(try importer.catalog.reconcile(libraryRoot: temp.state.library) == 1)
        #expect(try importer.catalog.items().isEmpty)
        #expect(try importer.catalog.item(sha256: String(repeating: "0", count: 64)) == nil)
    }

    @Test func twoImportersRacingImportEachFileOnce() async throws {
        let temp = try TempHome(inbox: true)
        let base = try Data(contentsOf: fixture("sample.mp3"))
        let count = 24
        for i in 0..<count { try temp.land(data: base + Data("tail \(i)".utf8), as: "episode-\(i).mp3") }
        let first = try LibraryImporter(state: temp.state)
        let second = try LibraryImporter(state: temp.state)
        async let a = Task.detached { try first.importPending() }.value
        async let b = Task.detached { try second.importPending() }.value
        let outcomes = try await a + b
        let imported = outcomes.filter { if case .imported = $0.result { return true } else { return false } }
        #expect(imported.count == count)
        #expect(Set(imported.map(\.fileName)).count == count)
        #expect(outcomes.count == count, "no file was seen by both importers")
        #expect(try first.catalog.items().count == count)
        #expect(temp.libraryFiles().count == count)
    }

    @Test func anotherProcessHoldingTheLockMakesTheImporterWait() async throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)   // creates the folders and the catalog
        try temp.land(fixture("sample.mp3"))
        // Another process (a single python3 process, so killing it releases the lock) takes the
        // same flock and holds it until it is killed. It is killed rather than told to stop through
        // its stdin: a pipe end inherited by a process that another test spawns at the same time
        // would keep it alive.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c",
                            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(600)",
                            temp.state.url.appendingPathComponent("import.lock").path]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        let said = output.fileHandleForReading.availableData
        try #require(String(decoding: said, as: UTF8.self).hasPrefix("locked"))
        let run = Task.detached { try importer.importPending() }
        // The kernel lists a process blocked on a lock as a waiter (`->`) in /proc/locks: once
        // the importer waits there, it has met the lock and stopped.
        let lockFile = temp.state.url.appendingPathComponent("import.lock").path
        let inode = try #require((try FileManager.default.attributesOfItem(atPath: lockFile)[.systemFileNumber] as? NSNumber)?.uint64Value)
        let waiting = eventually(within: 30) {
            ((try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? "").split(separator: "\n").contains {
                $0.contains("->") && $0.contains(":\(inode) ")
            }
        }
        #expect(waiting, "the importer waits on the lock another process holds")
        #expect(temp.inboxFiles() == ["sample.mp3"], "nothing moves while another process holds the lock")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(try await run.value.map(\.result) == [.imported(path: "sample.mp3")])
    }

    @Test func namingRules() {
        #expect(LibraryLayout.folderComponents("/Books/../Sci Fi/./x") == ["Books", "Sci Fi", "x"])
        #expect(LibraryLayout.folderComponents(nil) == [])
        #expect(LibraryLayout.cleanName("..hidden\u{1}name") == "hiddenname")
        #expect(LibraryLayout.fileName(for: "talk", format: .mp3) == "talk.mp3")
        #expect(LibraryLayout.fileName(for: "talk.MP3", format: .mp3) == "talk.MP3")
        #expect(LibraryLayout.fileName(for: "book.m4b", format: .m4a) == "book.m4b")
        #expect(LibraryLayout.fileName(for: "v1.2 final", format: .flac) == "v1.2 final.flac")
        #expect(LibraryLayout.uniqueName("a.mp3") { ["a.mp3", "a-1.mp3"].contains($0) } == "a-2.mp3")
        #expect(LibraryLayout.uniqueName("Book v1.2", isDirectory: true) { $0 == "Book v1.2" } == "Book v1.2-1")
    }

    func item(path: String, sha256: String) -> LibraryItem {
        LibraryItem(path: path, title: "t", author: nil, album: nil, duration: nil, chapters: [], format: "mp3", size: 1,
                    sha256: sha256, sourceURL: nil, originalName: path, addedAt: CatalogClock.now())
    }
}
