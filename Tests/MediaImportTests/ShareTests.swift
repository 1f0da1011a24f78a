import Foundation
import PiperCore
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MediaImport

/// `JournalMediaQueue`, the queue `piper share` uses: it returns at once and a detached
/// `piper agent --once` finishes the work after the sharer has moved on.
@Suite(.ownThread) struct ShareTests {
    /// The pid holding a `flock` on `file`, from /proc/locks.
    func lockHolder(_ file: URL) -> pid_t? {
        var info = stat()
        guard stat(file.path, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5].hasSuffix(":\(info.st_ino)") else { continue }
            return pid_t(fields[4])
        }
        return nil
    }

    @Test func enqueueReturnsWhileTheDownloadRunsAndTheDetachedAgentFinishesIt() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.flac")
        try server.route("/share/sample.flac", .init(body: body), faults: [.drip(chunk: 4096, interval: 0.15)])
        let queue = JournalMediaQueue(state: home.state, environment: home.environment())

        let receipt = try queue.enqueue(url: server.url("/share/sample.flac"), into: "Audiobooks")
        #expect(!receipt.alreadyQueued)
        // Returned before the (≈5 s, drip-fed) download could have finished.
        let entry = try #require(try Journal(state: home.state).entry(id: receipt.id))
        #expect(entry.state == .queued || entry.state == .downloading)
        #expect(entry.folder == "Audiobooks")
        #expect(home.inboxFiles().isEmpty)

        // The worker is a `piper agent --once` in a session of its own, holding the lock.
        // Read the holder in the same poll that finds the lock held: on a loaded machine two
        // separate looks can straddle the agent's exit.
        var found: pid_t?
        #expect(try eventually {
            found = lockHolder(AgentLock.file(in: home.state))
            return found != nil
        })
        let holder = try #require(found)
        let commandLine = (try? String(contentsOfFile: "/proc/\(holder)/cmdline", encoding: .utf8)) ?? ""
        #expect(commandLine.split(separator: "\0").suffix(2) == ["agent", "--once"])
        #expect(getsid(holder) == holder)
        #expect(getsid(holder) != getsid(0))

        let again = try queue.enqueue(url: server.url("/share/sample.flac"), into: nil)
        #expect(again.alreadyQueued)
        #expect(again.id == receipt.id)

        #expect(try eventually { try Journal(state: home.state).entry(id: receipt.id)?.state == .imported })
        #expect(home.inboxFiles().isEmpty)
        let copies = try home.libraryCopies(of: "sample.flac")
        #expect(copies.count == 1)
        #expect(copies.first?.hasPrefix("Audiobooks/") == true)
        #expect(try server.requests("/share/sample.flac").filter { $0.method == "GET" }.count == 1)
        #expect(FileManager.default.fileExists(atPath: home.state.downloads.appendingPathComponent("agent.log").path))
    }

    @Test func extensionlessLinksAreAcceptedOnlyForMediaContentTypes() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/stream", .init(body: try Fixtures.bytes("sample.mp3"), contentType: "audio/mpeg"))
        try server.route("/page", .init(body: Array("<html>hi</html>".utf8), contentType: "text/html"))
        let queue = JournalMediaQueue(state: home.state, environment: home.environment())

        #expect(throws: EnqueueError.notMedia(server.url("/page").absoluteString, "text/html")) {
            try queue.enqueue(url: server.url("/page"), into: nil)
        }
        #expect(throws: EnqueueError.unsupportedScheme("ftp://127.0.0.1/a.mp3")) {
            try queue.enqueue(url: URL(string: "ftp://127.0.0.1/a.mp3")!, into: nil)
        }
        let receipt = try queue.enqueue(url: server.url("/stream"), into: nil)
        #expect(try server.requests("/stream").first?.method == "HEAD")
        #expect(try eventually { try Journal(state: home.state).entry(id: receipt.id)?.state == .imported })
        #expect(try Journal(state: home.state).entry(id: receipt.id)?.file == "stream.mp3")
        #expect(try home.libraryCopies(of: "sample.mp3").count == 1)
    }

    @Test func localFilesAreCopiedIntoTheInboxAtomicallyWithoutOverwriting() throws {
        let home = try TempHome()
        // No real agent here, so the inbox can be inspected before anything imports it.
        let queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/true"]))
        let first = try queue.enqueue(file: Fixtures.media("sample.m4b"), into: nil)
        let second = try queue.enqueue(file: Fixtures.media("sample.m4b"), into: nil)
        #expect(first.id != second.id)
        #expect(home.inboxFiles() == ["sample-1.m4b", "sample.m4b"])
        for name in home.inboxFiles() {
            #expect(try Fixtures.sha256(home.state.inbox.appendingPathComponent(name)) == Fixtures.sha256(Fixtures.media("sample.m4b")))
        }
        let journal = try Journal(state: home.state)
        #expect(try journal.entries().map(\.state) == [.landed, .landed])
        let missing = home.url.appendingPathComponent("nope.mp3")
        #expect(throws: EnqueueError.fileNotFound(missing.path)) { try queue.enqueue(file: missing, into: nil) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.state.downloads.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)

        // The agent then imports both; the library keeps one copy (dedup by SHA-256).
        let agent = try startPiper(["agent", "--once"], environment: home.environment())
        agent.waitUntilExit()
        #expect(try journal.entries().map(\.state) == [.imported, .duplicate], "the second copy is reported as what it is")
        #expect(try journal.entries().map(\.libraryPath) == ["sample.m4b", "sample.m4b"], "both name the one file in the library")
        #expect(try home.libraryCopies(of: "sample.m4b").count == 1)
        #expect(home.inboxFiles().isEmpty)
    }

    /// `piper serve`'s uploads are the queue's to take: renamed (the same inode lands in the
    /// inbox, nothing copied), while a file from anywhere else is copied and left in place.
    @Test func filesFromTheTakenFolderAreRenamedNotCopied() throws {
        let home = try TempHome()
        var queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/true"]))
        queue.takesFilesFrom = home.state.uploads
        let upload = home.state.uploads.appendingPathComponent("a1b2/0-episode.m4b")
        try FileManager.default.createDirectory(at: upload.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.media("sample.m4b"), to: upload)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: upload.path)[.systemFileNumber] as? Int)
        let receipt = try queue.enqueue(file: upload, into: nil)
        #expect(receipt.message == "Added 0-episode.m4b to the inbox")
        #expect(!FileManager.default.fileExists(atPath: upload.path), "the upload was moved, not copied")
        let landed = home.state.inbox.appendingPathComponent("0-episode.m4b")
        #expect(try FileManager.default.attributesOfItem(atPath: landed.path)[.systemFileNumber] as? Int == inode)
        #expect(try Fixtures.sha256(landed) == Fixtures.sha256(Fixtures.media("sample.m4b")))
        #expect(try Journal(state: home.state).entries().map(\.state) == [.landed])

        // Outside the folder (a look-alike prefix included): copied, the original stays.
        let beside = home.url.appendingPathComponent("uploads-not/sample.m4b")
        try FileManager.default.createDirectory(at: beside.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.media("sample.m4b"), to: beside)
        _ = try queue.enqueue(file: beside, into: nil)
        #expect(FileManager.default.fileExists(atPath: beside.path))
        #expect(home.inboxFiles().sorted() == ["0-episode.m4b", "sample.m4b"])
    }

    @Test func downloadsCommandListsTheJournal() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let id = try journal.add(url: "https://h.example/a.mp3", source: "https://h.example/a.mp3", kind: .url, folder: nil).entry.id
        try journal.markFailed(id, reason: "HTTP 404 Not Found")

        let (status, output) = try runPiper(["downloads", "--json"], environment: home.environment())
        #expect(status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        try #require(rows.count == 1)
        #expect(Set(rows[0].keys) == ["id", "url", "state", "status", "bytes", "total", "file", "reason", "detail", "nextAttempt",
                                       "libraryPath", "updated"])
        #expect(rows[0]["id"] as? String == id)
        #expect(rows[0]["state"] as? String == "failed" && rows[0]["status"] as? String == "failed")
        // The sentence people read (as /api/shares says it), and the journal's technical text beside it.
        let sentence = "h.example has nothing at this link (HTTP 404); check the link (the page may have moved or been removed)"
        #expect(rows[0]["reason"] as? String == sentence)
        #expect(rows[0]["detail"] as? String == "HTTP 404 Not Found" && rows[0]["nextAttempt"] is NSNull)

        let (textStatus, text) = try runPiper(["downloads"], environment: home.environment())
        #expect(textStatus == 0)
        #expect(text.contains(id) && text.contains("failed") && text.contains("\n    \(sentence)\n    (HTTP 404 Not Found)"), "\(text)")
    }

    @Test func shareLinksAreRewrittenToDirectDownloadsBeforeJournaling() throws {
        let home = try TempHome()
        // No agent: nothing may leave the machine.
        let queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/true"]))
        let receipt = try queue.enqueue(url: URL(string: "https://www.dropbox.com/s/abc123/Episode%201.mp3?dl=0")!, into: nil)
        let entry = try #require(try Journal(state: home.state).entry(id: receipt.id))
        #expect(entry.url == "https://www.dropbox.com/s/abc123/Episode%201.mp3?dl=0")
        #expect(entry.source == "https://www.dropbox.com/s/abc123/Episode%201.mp3?dl=1")
        #expect(entry.state == .queued)
        let again = try queue.enqueue(url: URL(string: "https://www.dropbox.com/s/abc123/Episode%201.mp3?dl=1")!, into: nil)
        #expect(again.alreadyQueued)
    }

    @Test func theIntoFolderTravelsWithTheFileToAnyImporter() throws {
        let home = try TempHome()
        let inbox = try home.state.ensure(home.state.inbox)
        // A file of the same name already waits in the inbox, with its own sidecar.
        try Data(try Fixtures.bytes("sample.ogg")).write(to: inbox.appendingPathComponent("sample.mp3"))
        let otherSidecar = inbox.appendingPathComponent(".sample.mp3.piper.json")
        try Data(#"{"folder":"Other"}"#.utf8).write(to: otherSidecar)

        let queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/true"]))
        _ = try queue.enqueue(file: Fixtures.media("sample.mp3"), into: "Books")
        #expect(home.inboxFiles().filter { !$0.hasPrefix(".") } == ["sample-1.mp3", "sample.mp3"])
        #expect(try String(contentsOf: otherSidecar, encoding: .utf8) == #"{"folder":"Other"}"#)

        // An importer that knows nothing of the journal still files each one where it belongs.
        _ = try LibraryImporter(state: home.state).importPending()
        #expect(try home.libraryCopies(of: "sample.mp3").first?.hasPrefix("Books/") == true)
        #expect(try home.libraryCopies(of: "sample.ogg").first?.hasPrefix("Other/") == true)
    }

    @Test func aServerRefusingHeadIsAskedWithARangedGet() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/episode", .init(body: try Fixtures.bytes("sample.m4a"), contentType: "audio/mp4"), faults: [.status(405, times: 1)])
        let queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/true"]))
        let receipt = try queue.enqueue(url: server.url("/episode"), into: nil)
        #expect(!receipt.alreadyQueued)
        let requests = try server.requests("/episode")
        try #require(requests.count == 2)
        #expect(requests[0].method == "HEAD")
        #expect(requests[1].method == "GET")
        #expect(requests[1].header("range") == "bytes=0-0")
    }
}
