import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport
#if canImport(Glibc)
import Glibc
#endif

/// The agent and importer under the faults that once stopped them or imported half a file.
@Suite(.ownThread) struct AgentFaultTests {
    func settings() -> AgentSettings { FastSettings.agent }

    func add(_ journal: Journal, _ url: URL) throws -> String {
        try journal.add(url: url.absoluteString, source: url.absoluteString, kind: .url, folder: nil).entry.id
    }

    @Test func threeDripsDoNotBlockAFourthHealthyLink() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.ogg")
        for n in 1...3 { try server.route("/drip\(n).ogg", .init(body: body), faults: [.drip(chunk: 5, interval: 1)]) }
        try server.route("/healthy.mp3", .init(body: try Fixtures.bytes("sample.mp3")))
        let journal = try Journal(state: home.state)
        let drips = try (1...3).map { try add(journal, server.url("/drip\($0).ogg")) }
        let healthy = try add(journal, server.url("/healthy.mp3"))
        var s = settings()
        s.concurrency = 3
        s.slowAfter = 1
        s.download.jobTimeout = 10   // the drips end, so the once-agent does too
        let state = home.state
        let configured = s
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? Agent(state: state, settings: configured, importer: nil).run(once: true)
            done.signal()
        }
        #expect(eventually(within: 15) { (try? journal.entry(id: healthy))??.state == .landed },
                "the healthy link lands while the drips still hold their slots")
        #expect(try drips.allSatisfy { try journal.entry(id: $0)?.state == .downloading })
        #expect(done.wait(timeout: .now() + 60) == .success)
        for id in drips {
            let entry = try #require(try journal.entry(id: id))
            #expect(entry.state == .failed)
            #expect(entry.reason?.contains("PIPER_DOWNLOAD_JOB_TIMEOUT") == true, "\(entry.reason ?? "")")
        }
    }

    @Test func aFileStillBeingWrittenIntoTheInboxIsImportedOnceWhole() throws {
        let temp = try TempHome(inbox: true)
        let importer = try LibraryImporter(state: temp.state)
        let target = temp.state.inbox.appendingPathComponent("copied-in.wav")
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        let header = try Fixtures.bytes("sample.wav")
        FileManager.default.createFile(atPath: target.path, contents: nil)
        let writer = try #require(FileHandle(forWritingAtPath: target.path))
        writer.write(Data(header))
        let progress = WriterProgress()
        // In lockstep: the writer adds a chunk after each import run, so runs meet the file
        // open at every stage of its writing however loaded the machine is.
        let ran = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<32 {
                ran.wait()
                writer.write(Data(chunk))
            }
            progress.set(.closing)
            try? writer.close()
            progress.set(.closed)
        }
        var imported: [ImportOutcome] = []
        var runsWhileOpen = 0
        while progress.value != .closed {
            let outcomes = try importer.importPending()
            // Still writing when the run ended: the run must have left the file alone.
            if progress.value == .writing {
                runsWhileOpen += 1
                #expect(outcomes.isEmpty, "nothing is imported while the writer has the file open")
                #expect(importer.deferredFiles == 1, "the file waits, and the agent is told to look again")
            }
            imported += outcomes
            ran.signal()
        }
        #expect(runsWhileOpen >= 32)
        // A process another test spawns at the moment of the close may share the file until it
        // execs: the importer then defers it once more, and says so. Ask again while it does.
        let deadline = Date().addingTimeInterval(30)
        repeat {
            imported += try importer.importPending()
        } while imported.isEmpty && importer.deferredFiles > 0 && Date() < deadline
        #expect(imported.count == 1)
        let sha = try #require(imported.first?.sha256)
        var whole = Data(header)
        for _ in 0..<32 { whole.append(Data(chunk)) }
        #expect(sha == SHA256.hex(of: [UInt8](whole)), "the catalog holds the whole file, not a prefix")
        #expect(try importer.importPending().isEmpty, "and only once")
    }

    @Test func withoutProcAFileMustHoldStillBeforeItIsImported() throws {
        let temp = try TempHome(inbox: true)
        let empty = temp.root.appendingPathComponent("no-proc")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let readiness = InboxReadiness(settle: 0.3, procRoot: empty.path)
        let file = try temp.land(Fixtures.media("sample.mp3"))
        let start = Date()
        #expect(readiness.split(["sample.mp3"], in: temp.state.inbox, landed: { _ in false }, now: start).deferred == ["sample.mp3"])
        #expect(readiness.split(["sample.mp3"], in: temp.state.inbox, landed: { _ in false }, now: start + 0.1).deferred == ["sample.mp3"])
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        handle.write(Data([1, 2, 3]))
        try handle.close()
        #expect(readiness.split(["sample.mp3"], in: temp.state.inbox, landed: { _ in false }, now: start + 0.4).deferred == ["sample.mp3"],
                "it changed, so the wait starts again")
        #expect(readiness.split(["sample.mp3"], in: temp.state.inbox, landed: { _ in false }, now: start + 0.8).ready == ["sample.mp3"])
        #expect(readiness.split(["x.mp3"], in: temp.state.inbox, landed: { $0 == "x.mp3" }, now: start).ready == ["x.mp3"],
                "a file Piper landed is complete at once")
    }
}

/// Where the test's slow writer is. `@unchecked Sendable`: `state` is guarded by `lock`.
final class WriterProgress: @unchecked Sendable {
    enum State { case writing, closing, closed }
    private let lock = NSLock()
    private var state = State.writing

    var value: State {
        lock.lock(); defer { lock.unlock() }
        return state
    }

    func set(_ new: State) {
        lock.lock(); state = new; lock.unlock()
    }
}
