import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// `piper agent` as a real process, killed with SIGKILL at each step, then restarted.
@Suite(.ownThread) struct AgentCrashTests {
    func partialSize(_ home: TempHome, _ id: String) -> Int64 {
        let path = home.state.downloads.appendingPathComponent("\(id).part").path
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    func state(_ home: TempHome, _ id: String) throws -> DownloadState? {
        try Journal(state: home.state).entry(id: id)?.state
    }

    @Test func killedMidDownloadResumesAndLandsCompleteFile() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.flac")
        try server.route("/slow/sample.flac", .init(body: body), faults: [.drip(chunk: 2048, interval: 0.05)])
        let url = server.url("/slow/sample.flac").absoluteString
        let id = try Journal(state: home.state).add(url: url, source: url, kind: .url, folder: nil).entry.id

        let first = try startPiper(["agent", "--once"], environment: home.environment())
        #expect(eventually { partialSize(home, id) >= 8192 })
        killHard(first)
        #expect(try state(home, id) == .downloading)
        #expect(home.inboxFiles().isEmpty)
        let keptBytes = partialSize(home, id)
        #expect(keptBytes > 0 && keptBytes < Int64(body.count))

        try server.route("/slow/sample.flac", .init(body: body))
        let second = try startPiper(["agent", "--once"], environment: home.environment())
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(try state(home, id) == .imported)
        #expect(home.inboxFiles().isEmpty)
        #expect(try home.libraryCopies(of: "sample.flac").count == 1)
        let resumed = try #require(try server.requests("/slow/sample.flac").last)
        let offset = Int(resumed.header("range")?.dropFirst(6).dropLast() ?? "") ?? 0
        #expect(offset > 0 && offset <= keptBytes)
        #expect(resumed.header("if-range") == "\"v1\"")
    }

    @Test func killedAfterDownloadBeforeLandingLandsWithoutDownloadingAgain() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/m/sample.m4a", .init(body: try Fixtures.bytes("sample.m4a")))
        let url = server.url("/m/sample.m4a").absoluteString
        let id = try Journal(state: home.state).add(url: url, source: url, kind: .url, folder: nil).entry.id

        let first = try startAgentStopping(at: .downloaded, once: true, environment: home.environment())
        #expect(try eventually { try state(home, id) == .downloaded })
        killHard(first)
        #expect(home.inboxFiles().isEmpty)
        #expect(partialSize(home, id) == 37571)

        let second = try startPiper(["agent", "--once"], environment: home.environment())
        second.waitUntilExit()
        #expect(try state(home, id) == .imported)
        #expect(home.inboxFiles().isEmpty)
        #expect(try home.libraryCopies(of: "sample.m4a").count == 1)
        #expect(try server.requests("/m/sample.m4a").count == 1)
    }

    @Test func killedAfterLandingBeforeImportIsImportedOnceByTheNextAgent() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/m/sample.mp4", .init(body: try Fixtures.bytes("sample.mp4")))
        let url = server.url("/m/sample.mp4").absoluteString
        let id = try Journal(state: home.state).add(url: url, source: url, kind: .url, folder: nil).entry.id

        let first = try startAgentStopping(at: .landed, once: true, environment: home.environment())
        #expect(try eventually { try state(home, id) == .landed })
        killHard(first)
        #expect(home.inboxFiles() == ["sample.mp4"])

        #expect(try home.libraryCopies(of: "sample.mp4").isEmpty)

        // The next agent finds nothing to download again and imports the landed file.
        let second = try startPiper(["agent", "--once"], environment: home.environment())
        second.waitUntilExit()
        #expect(try state(home, id) == .imported)
        #expect(home.inboxFiles().isEmpty)
        #expect(try home.libraryCopies(of: "sample.mp4").count == 1)
        #expect(try server.requests("/m/sample.mp4").count == 1)

        // Killed after import too: a later agent changes nothing and imports nothing twice.
        let third = try startPiper(["agent", "--once"], environment: home.environment())
        third.waitUntilExit()
        #expect(try home.libraryCopies(of: "sample.mp4").count == 1)
        #expect(try state(home, id) == .imported)
    }

    @Test func aLongRunningAgentWakesForNewSharesAndInboxDrops() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/live/sample.ogg", .init(body: try Fixtures.bytes("sample.ogg")))
        try server.route("/live/sample.opus", .init(body: try Fixtures.bytes("sample.opus")))
        // Idle rescans two minutes apart: only inotify can make it pick up work promptly.
        let agent = try startPiper(["agent"], environment: home.environment(["PIPER_AGENT_IDLE_MS": "120000"]))
        defer { killHard(agent) }
        #expect(try eventually { try AgentLock.isHeld(state: home.state) })

        // The queue sees the lock held and starts nobody: the running agent does the work.
        let queue = JournalMediaQueue(state: home.state, environment: home.environment(["PIPER_EXECUTABLE": "/bin/false"]))
        let receipt = try queue.enqueue(url: server.url("/live/sample.ogg"), into: nil)
        #expect(try eventually(within: 20) { try Journal(state: home.state).entry(id: receipt.id)?.state == .imported })
        #expect(try home.libraryCopies(of: "sample.ogg").count == 1)

        // Files dropped into the inbox by hand are imported by the rescan too.
        let hidden = home.state.inbox.appendingPathComponent(".dropped.wav.tmp")
        try FileManager.default.copyItem(at: Fixtures.media("sample.wav"), to: hidden)
        try FileManager.default.moveItem(at: hidden, to: home.state.inbox.appendingPathComponent("dropped.wav"))
        #expect(try eventually(within: 20) { try home.libraryCopies(of: "sample.wav").count == 1 })
        #expect(agent.isRunning)
    }
}
