import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

/// Retry later, cancel, retry, rm, library rm and the listing, against real servers and the
/// built binary.
@Suite(.ownThread) struct ControlTests {
    func settings() -> AgentSettings { FastSettings.agent }

    @Test func aServerThatIsDownAndComesBackIsDownloadedWithoutANewShare() throws {
        let home = try TempHome()
        let port = try closedPort()   // the server is down: this port refuses connections
        let url = "http://127.0.0.1:\(port)/later.mp3"
        let id = try Journal(state: home.state).add(url: url, source: url, kind: .url, folder: nil).entry.id
        let agent = try startPiper(["agent"], environment: home.environment([
            "PIPER_DOWNLOAD_ATTEMPTS": "2", "PIPER_DOWNLOAD_LATER_SECONDS": "1", "PIPER_DOWNLOAD_LATER_MAX_SECONDS": "2",
        ]))
        defer { killHard(agent) }
        let journal = try Journal(state: home.state)
        #expect(eventually(within: 30) { (try? journal.entry(id: id))??.laterTries ?? 0 >= 1 }, "the job is put off, not failed")
        let postponed = try #require(try journal.entry(id: id))
        #expect(postponed.state != .failed)
        // The journal keeps the technical reason and the next attempt apart; people read them as one line.
        if postponed.state == .queued {
            #expect(postponed.reason?.hasPrefix("Gave up after 2 attempts: ") == true && postponed.notBefore != nil, "\(postponed.reason ?? "")")
            let status = postponed.status(now: postponed.updated)
            #expect(status.state == .postponed && status.failure?.cause == .connectionRefused, "\(status)")
            #expect(status.reason == "127.0.0.1 refused the connection, so it may be down; try again later")
        }

        let server = try TestHTTPServer(port: port)   // back online, same address
        try server.route("/later.mp3", .init(body: try Fixtures.bytes("sample.mp3")))
        #expect(eventually(within: 60) { (try? journal.entry(id: id))??.state == .imported }, "no new share needed")
        #expect(agent.isRunning)
        #expect(try home.libraryCopies(of: "sample.mp3").count == 1)
    }

    @Test func cancellingARunningDownloadStopsItAndTheAgentGoesOn() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/slow.flac", .init(body: try Fixtures.bytes("sample.flac")), faults: [.drip(chunk: 512, interval: 0.05)])
        try server.route("/next.mp3", .init(body: try Fixtures.bytes("sample.mp3")))
        let journal = try Journal(state: home.state)
        let slow = try journal.add(url: server.url("/slow.flac").absoluteString, source: server.url("/slow.flac").absoluteString,
                                   kind: .url, folder: nil).entry.id
        let state = home.state
        let configured = settings()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? Agent(state: state, settings: configured, importer: nil).run(once: true)
            done.signal()
        }
        #expect(eventually { ((try? journal.entry(id: slow))??.bytes ?? 0) > 2048 })
        try journal.cancel(slow)
        #expect(done.wait(timeout: .now() + 30) == .success, "the cancelled download ends")
        let entry = try #require(try journal.entry(id: slow))
        #expect(entry.state == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: entry.partialFile(in: home.state.downloads).path), "its partial file is gone")
        #expect(throws: Journal.ControlError.self) { try journal.cancel(slow) }

        // Retry brings it back; rm forgets it once it has ended.
        try server.route("/slow.flac", .init(body: try Fixtures.bytes("sample.flac")))
        try journal.retry(slow)
        #expect(try journal.entry(id: slow)?.state == .queued)
        _ = try Agent(state: home.state, settings: settings(), importer: nil).run(once: true)
        #expect(try journal.entry(id: slow)?.state == .landed)
        #expect(throws: Journal.ControlError.self) { try journal.remove(slow, downloads: home.state.downloads) }
        let failed = try journal.add(url: "https://h.example/x.mp3", source: "https://h.example/x.mp3", kind: .url, folder: nil).entry.id
        try journal.markFailed(failed, reason: "HTTP 404 Not Found")
        try journal.remove(failed, downloads: home.state.downloads)
        #expect(try journal.entry(id: failed) == nil)
    }

    @Test func theListingSaysWhenADownloadHasNoAgentAndHowFarItGot() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let id = try journal.add(url: "https://h.example/ep.mp3", source: "https://h.example/ep.mp3", kind: .url, folder: nil).entry.id
        _ = try journal.claimNextQueued()
        try journal.setProgress(id, bytes: 5_000_000, total: 20_000_000, rate: 1_000_000)
        let (status, output) = try runPiper(["downloads"], environment: home.environment())
        #expect(status == 0)
        #expect(output.contains("stalled (no agent running)"), "\(output)")
        #expect(output.contains("25% 5.0/20.0 MB"), "\(output)")
    }

    /// Only an imported or duplicate job says where it is in the library, whatever path the
    /// row holds.
    @Test func theListingNamesTheLibraryPathOfImportedAndDuplicateJobsOnly() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        var ids: [DownloadState: String] = [:]
        for state in [DownloadState.imported, .duplicate, .cancelled, .failed] {
            let url = "https://h.example/\(state.rawValue).mp3"
            ids[state] = try journal.add(url: url, source: url, kind: .url, folder: nil).entry.id
        }
        try journal.markImported(ids.map { JournalOutcome(id: $0.value, state: $0.key, libraryPath: "Shows/\($0.key.rawValue).mp3") })
        let (status, output) = try runPiper(["downloads"], environment: home.environment())
        #expect(status == 0)
        #expect(output.contains("In the library as Shows/imported.mp3"), "\(output)")
        #expect(output.contains("Already in the library as Shows/duplicate.mp3"), "\(output)")
        #expect(!output.contains("Shows/cancelled.mp3") && !output.contains("Shows/failed.mp3"), "\(output)")
    }

    @Test func libraryRmRemovesTheFileAndItsEntryByPathOrHash() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        try temp.land(fixture("sample.mp3"))
        try temp.land(fixture("sample.ogg"))
        _ = try importer.importPending()
        #expect(temp.libraryFiles().count == 2)
        #expect(throws: LibraryImporter.RemoveError.noMatch("nothing.mp3")) { try importer.remove("nothing.mp3") }
        let removed = try importer.remove("sample.mp3")
        #expect(removed.path == "sample.mp3")
        #expect(temp.libraryFiles() == ["sample.ogg"])
        let ogg = try #require(try importer.catalog.items().first)
        try importer.remove(String(ogg.sha256.prefix(10)))
        #expect(temp.libraryFiles().isEmpty)
        #expect(try importer.catalog.items().isEmpty)
        // Gone from the catalog, so sharing it again imports it again.
        try temp.land(fixture("sample.mp3"))
        #expect(try importer.importPending().map(\.result) == [.imported(path: "sample.mp3")])
    }
}
