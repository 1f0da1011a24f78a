import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// Records importer calls; stands in for the library's importer behind the agent's own port.
///
/// `@unchecked Sendable`: `calls` is guarded by `lock`.
final class RecordingImporter: InboxImporting, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let inbox: URL
    var fails = false
    init(inbox: URL) { self.inbox = inbox }
    var calls: Int { lock.lock(); defer { lock.unlock() }; return count }
    /// Reports every inbox file imported (leaving it there, so tests can look at it).
    var deferredFiles: Int { 0 }
    func importInbox(hints: (String) -> ImportHints?, landed: (String) -> Bool) throws -> [ImportOutcome] {
        lock.lock(); count += 1; lock.unlock()
        if fails { throw DownloadError.failed("importer is down") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.map { ImportOutcome(fileName: $0, result: .imported(path: $0), sha256: nil) }
    }
}

/// The agent in-process, against a real local server and real files.
@Suite(.ownThread) struct AgentTests {
    func settings() -> AgentSettings { FastSettings.agent }

    @Test func drainsTheQueueLandsCompleteFilesAndNeverOverwrites() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let files = ["sample.mp3", "sample.flac", "sample.m4b"]
        for name in files { try server.route("/a/\(name)", .init(body: try Fixtures.bytes(name))) }
        try server.route("/b/sample.mp3", .init(body: try Fixtures.bytes("sample.ogg")))
        try server.route("/gone.mp3", .init(body: [1]), faults: [.status(410, times: 9)])
        let journal = try Journal(state: home.state)
        for path in files.map({ "/a/\($0)" }) + ["/b/sample.mp3", "/gone.mp3"] {
            _ = try journal.add(url: server.url(path).absoluteString, source: server.url(path).absoluteString, kind: .url, folder: nil)
        }
        let importer = RecordingImporter(inbox: home.state.inbox)
        let outcome = try Agent(state: home.state, settings: settings(), importer: importer).run(once: true)
        guard case .finished(let summary) = outcome else { Issue.record("agent did not run"); return }
        #expect(summary.landed == 4)
        #expect(summary.failed == 1)
        #expect(summary.imported == 4)
        #expect(importer.calls >= 1)
        #expect(home.inboxFiles() == ["sample-1.mp3", "sample.flac", "sample.m4b", "sample.mp3"])
        for name in ["sample.flac", "sample.m4b"] {
            #expect(try Fixtures.sha256(home.state.inbox.appendingPathComponent(name)) == Fixtures.sha256(Fixtures.media(name)))
        }
        let mp3s = try Set(["sample.mp3", "sample-1.mp3"].map { try Fixtures.sha256(home.state.inbox.appendingPathComponent($0)) })
        #expect(mp3s == Set(try ["sample.mp3", "sample.ogg"].map { try Fixtures.sha256(Fixtures.media($0)) }))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.state.downloads.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)
        let entries = try journal.entries()
        #expect(entries.filter { $0.state == .imported }.count == 4)
        let failed = try #require(entries.first { $0.state == .failed })
        #expect(failed.reason == "HTTP 410 Gone")
    }

    @Test func downloadedEntryIsLandedAndLandedEntryImportedOnRestart() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let a = try journal.add(url: "https://h/a.mp3", source: "https://h/a.mp3", kind: .url, folder: nil).entry
        try Data(try Fixtures.bytes("sample.mp3")).write(to: a.partialFile(in: home.state.downloads))
        try journal.markDownloaded(a.id, bytes: 26001, file: "a.mp3")
        let b = try journal.add(url: "https://h/b.mp3", source: "https://h/b.mp3", kind: .url, folder: nil).entry
        try journal.markLanded(b.id, file: "b.mp3")
        let importer = RecordingImporter(inbox: home.state.inbox)
        _ = try Agent(state: home.state, settings: settings(), importer: importer).run(once: true)
        #expect(home.inboxFiles() == ["a.mp3"])
        #expect(importer.calls >= 1)
        #expect(try journal.entry(id: a.id)?.state == .imported)
        #expect(try journal.entry(id: b.id)?.state == .imported)
    }

    @Test func failedImportLeavesEntriesLanded() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let b = try journal.add(url: "u", source: "s", kind: .url, folder: nil).entry
        try journal.markLanded(b.id, file: "b.mp3")
        let importer = RecordingImporter(inbox: home.state.inbox)
        importer.fails = true
        _ = try Agent(state: home.state, settings: settings(), importer: importer).run(once: true)
        #expect(importer.calls >= 1)
        #expect(try journal.entry(id: b.id)?.state == .landed)
    }

    @Test func aSecondAgentDoesNotRunWhileTheLockIsHeld() throws {
        let home = try TempHome()
        let lock = try #require(try AgentLock(state: home.state))
        #expect(try AgentLock.isHeld(state: home.state))
        let outcome = try Agent(state: home.state, settings: settings(), importer: nil).run(once: true)
        #expect(outcome == .alreadyRunning)
        withExtendedLifetime(lock) {}
    }

    @Test func theLockIsFreedWhenTheHolderGoesAway() throws {
        let home = try TempHome()
        do {
            let lock = try #require(try AgentLock(state: home.state))
            withExtendedLifetime(lock) {}
        }
        #expect(try !AgentLock.isHeld(state: home.state))
    }

    @Test func filesTheLibraryRejectsAreJournaledFailedWithTheReason() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/fake.m4b", .init(body: try Fixtures.bytes("random-bytes.m4b"), contentType: "audio/mp4"))
        try server.route("/real.mp3", .init(body: try Fixtures.bytes("sample.mp3")))
        let journal = try Journal(state: home.state)
        let fake = try journal.add(url: server.url("/fake.m4b").absoluteString, source: server.url("/fake.m4b").absoluteString, kind: .url, folder: nil).entry
        let real = try journal.add(url: server.url("/real.mp3").absoluteString, source: server.url("/real.mp3").absoluteString, kind: .url, folder: "Pods").entry
        _ = try Agent(state: home.state, settings: settings(), importer: try LibraryImporter(state: home.state)).run(once: true)
        let failed = try #require(try journal.entry(id: fake.id))
        #expect(failed.state == .failed)
        #expect(failed.reason?.hasPrefix("Not imported: ") == true)
        #expect(try journal.entry(id: real.id)?.state == .imported)
        #expect(try home.libraryCopies(of: "sample.mp3").first?.hasPrefix("Pods/") == true)
        #expect(try home.libraryCopies(of: "random-bytes.m4b").isEmpty)
    }

    @Test func orphanedPartialsAreRemovedButResumableOnesKept() throws {
        let home = try TempHome()
        let journal = try Journal(state: home.state)
        let queued = try journal.add(url: "u1", source: "s1", kind: .url, folder: nil).entry
        let failed = try journal.add(url: "u2", source: "s2", kind: .url, folder: nil).entry
        try journal.markFailed(failed.id, reason: "HTTP 404 Not Found")
        let downloads = home.state.downloads
        for name in ["\(queued.id).part", "\(failed.id).part", "nobody.part", "fresh.part"] {
            try Data([1, 2, 3]).write(to: downloads.appendingPathComponent(name))
        }
        let old = Date().addingTimeInterval(-3600)
        for name in ["\(queued.id).part", "\(failed.id).part", "nobody.part"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: downloads.appendingPathComponent(name).path)
        }
        let agent = Agent(state: home.state, settings: settings(), importer: nil)
        try agent.removeOrphanedPartials(journal)
        let left = try FileManager.default.contentsOfDirectory(atPath: downloads.path).filter { $0.hasSuffix(".part") }.sorted()
        #expect(left == ["\(queued.id).part", "fresh.part"].sorted())
    }

    @Test func threeDownloadsRunAtATimeByDefault() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let journal = try Journal(state: home.state)
        for i in 0..<5 {
            try server.route("/c/\(i).opus", .init(body: try Fixtures.bytes("sample.opus")), faults: [.drip(chunk: 4096, interval: 0.1)])
            let url = server.url("/c/\(i).opus").absoluteString
            _ = try journal.add(url: url, source: url, kind: .url, folder: nil)
        }
        #expect(AgentSettings.from(environment: [:]).concurrency == 3)
        var settings = settings()
        settings.concurrency = AgentSettings.from(environment: [:]).concurrency
        _ = try Agent(state: home.state, settings: settings, importer: nil).run(once: true)
        #expect(server.peakConnections == 3)
        #expect(home.inboxFiles() == ["0.opus", "1.opus", "2.opus", "3.opus", "4.opus"])
    }
}
