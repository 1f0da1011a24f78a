import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// SIGTERM to the built `piper serve` (as systemd stops a service) while work is under way:
/// a share whose page is still loading either finishes within `--grace` (its answer arrives and
/// its record is in the store) or is answered 503 with `Retry-After`, never a cut connection;
/// a download under way pauses with its partial file and journal row kept, and the next
/// server resumes it from there. The process exits 0 in each case.
@Suite(.ownThread, .timeLimit(.minutes(4)))
struct ServeShutdownTests {
    /// POST /share with a JSON body, sent from a task of its own so the test can signal the
    /// server while the client waits for its answer.
    static func shareInBackground(_ server: ShareServer, link: String) throws -> Task<Reply, any Error> {
        let target = server.url + "/share"
        let body = try JSONSerialization.data(withJSONObject: ["url": link])
        let headers = try server.bearer.merging(["Content-Type": "application/json"]) { $1 }
        return Task { try await Client.send("POST", target, body: body, headers: headers) }
    }

    /// Sends SIGTERM and waits for the exit; the status.
    static func terminate(_ server: ShareServer) -> Int32 {
        kill(server.serve.process.processIdentifier, SIGTERM)
        server.serve.process.waitUntilExit()
        return server.serve.process.terminationStatus
    }

    @Test func aShareUnderWayFinishesWithinTheGrace() async throws {
        // The page is held for a few seconds: loading when the signal comes, done well within the grace.
        let site = try ShareSite.start(extra: ["/held": TestHTTPServer.Route(body: ShareSite.articleHTML, delay: 3)])
        let server = try ShareServer(["--allow-host", "127.0.0.1", "--grace", "120"])
        let link = site.url("/held").absoluteString
        let share = try Self.shareInBackground(server, link: link)
        let loading = try await eventually(within: 60) { try site.requests("/held").count == 1 }
        try #require(loading, "the share never asked for the page: \(server.serve.stderr)")

        #expect(Self.terminate(server) == 0, "\(server.serve.stderr)")
        let reply = try await share.value
        #expect(reply.status == 200, "the share finished: \(reply.text)")
        let answered = try reply.json()["shares"] as? [[String: Any]] ?? []
        #expect(answered.first?["status"] as? String == "saved", "\(reply.text)")
        #expect(server.serve.stderr.contains("received signal 15, shutting down"))
        #expect(server.serve.stderr.contains("stopped in "), "\(server.serve.stderr)")

        // Its record is in the store: the next server lists it.
        try server.startServing(port: 0)
        let records = try await ShareOfflineTests.records(server, source: link, headers: try server.bearer)
        #expect(records.count == 1 && records.first?["status"] as? String == "saved", "\(records)")
    }

    @Test func aShareThatCannotFinishIsAnsweredRetryNotCut() async throws {
        // The page answers after ten minutes, far beyond a one-second grace.
        let site = try ShareSite.start(extra: ["/stalled": TestHTTPServer.Route(body: ShareSite.articleHTML, delay: 600)])
        let server = try ShareServer(["--allow-host", "127.0.0.1", "--grace", "1"])
        let share = try Self.shareInBackground(server, link: site.url("/stalled").absoluteString)
        let loading = try await eventually(within: 60) { try site.requests("/stalled").count == 1 }
        try #require(loading, "the share never asked for the page: \(server.serve.stderr)")

        #expect(Self.terminate(server) == 0, "\(server.serve.stderr)")
        let reply = try await share.value
        #expect(reply.status == 503, "\(reply.text)")
        #expect(reply.header("Retry-After") == "\(HTTPServer.retryAfterSeconds)")
        #expect((try reply.json()["error"] as? String)?.contains("try again") == true, "a whole answer: \(reply.text)")
        #expect(server.serve.stderr.contains("1 request answered 503"), "\(server.serve.stderr)")
    }

    @Test func aDownloadUnderWayPausesAndTheNextServerResumesIt() async throws {
        let bytes = try Array(Data(contentsOf: mediaFixtures.appendingPathComponent("sample.mp3")))
        let host = try TestHTTPServer()
        // About 25 s to send the whole file: under way when the signal comes.
        try host.route("/slow.mp3", .init(body: bytes), faults: [.drip(chunk: 500, interval: 0.5)])
        let server = try ShareServer(["--allow-host", "127.0.0.1", "--grace", "10"])
        let reply = try await server.shareJSON(["url": host.url("/slow.mp3").absoluteString], headers: try server.bearer)
        let job = try #require(try reply.json()["job"] as? String, "\(reply.text)")
        let state = server.state

        func entry() throws -> JournalEntry? { try Journal(state: state).entry(id: job) }
        func partialSize(_ entry: JournalEntry) -> Int64 {
            let path = entry.partialFile(in: state.downloads).path
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        let underWay = try await eventually(within: 60) {
            guard let current = try entry() else { return false }
            return current.state == .downloading && partialSize(current) >= 1000
        }
        try #require(underWay, "the download never got going: \(server.serve.stderr)")

        #expect(Self.terminate(server) == 0, "\(server.serve.stderr)")
        let paused = try #require(try entry(), "the journal row survives")
        let kept = partialSize(paused)
        #expect(paused.state == .queued, "back in the queue for the next agent, not failed: \(paused.state)")
        #expect(kept >= 1000 && kept < Int64(bytes.count), "the partial file is kept: \(kept) bytes")
        #expect(server.serve.stderr.contains("paused "), "\(server.serve.stderr)")

        // The host is fast now; the next server's agent finishes the file from where it stopped.
        try host.route("/slow.mp3", .init(body: bytes))
        try server.startServing(port: 0)
        let finished = try await ShareRouteTests.waitForJob(job, server: server)
        #expect(finished.hasPrefix("imported as "), "\(finished): \(server.serve.stderr)")
        let resumed = try #require(try host.requests("/slow.mp3").last)
        #expect(resumed.header("Range") == "bytes=\(kept)-", "resumed from the kept bytes: \(resumed.header("Range") ?? "no Range")")
        let imported = try #require(try entry()?.libraryPath.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : state.library.appendingPathComponent($0) })
        #expect(try Data(contentsOf: imported).count == bytes.count, "the whole file, nothing lost")
    }
}
