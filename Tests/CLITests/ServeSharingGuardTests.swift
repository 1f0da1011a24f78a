import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import piper

/// `piper serve`'s download agent carries the server's SSRF guard itself. It used to be guarded
/// only by a process-wide guard that building the share services installed, so an agent started
/// before them downloaded from any address; here it is built with nothing else built first.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct ServeSharingGuardTests {
    static let fixtures = PiperBinary.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

    func sharing(allowing hosts: [String], environment: [String: String] = [:]) -> ServeSharing {
        ServeSharing(allowHosts: hosts, maxUploadBytes: 1 << 20, sharesPerMinute: 0, pair: false, environment: environment)
    }

    /// Queues the fixture `sample.mp3` from a local server and lets the serve's agent work it once.
    func runServeAgent(allowing hosts: [String]) throws -> (AgentSummary, JournalEntry, server: TestHTTPServer, TemporaryFolder) {
        let server = try TestHTTPServer(routes: [:], staticRoot: Self.fixtures)
        let folder = try TemporaryFolder("serve-agent")
        let state = StateFolder(url: folder.home)
        let link = server.url("/sample.mp3").absoluteString
        let (queued, _) = try Journal(state: state).add(url: link, source: link, kind: .url, folder: nil)
        let agent = sharing(allowing: hosts, environment: ["PIPER_AGENT_POLL_MS": "50"]).agent(state: state)
        guard case .finished(let summary) = try agent.run(once: true) else {
            throw DownloadError.failed("another agent held this fresh state folder")
        }
        let entry = try #require(try Journal(state: state).entry(id: queued.id))
        return (summary, entry, server, folder)
    }

    @Test func theServersAgentRefusesALocalAddressWithNothingElseBuiltFirst() throws {
        let (summary, entry, server, _) = try runServeAgent(allowing: [])
        defer { server.stop() }
        #expect(summary.failed == 1 && summary.landed == 0, "\(summary)")
        #expect(entry.state == .failed)
        #expect(entry.reason?.contains("Refused to fetch from 127.0.0.1: a loopback address") == true, "\(entry.reason ?? "")")
        #expect(try server.requests().isEmpty, "the local server was never contacted")
    }

    /// The control: `--allow-host` opens the address to the same agent, so the refusal above is the guard's.
    @Test func allowHostOpensTheAgentsDownloads() throws {
        let (summary, entry, server, _) = try runServeAgent(allowing: ["127.0.0.1"])
        defer { server.stop() }
        #expect(summary.landed == 1, "\(summary)")
        #expect(entry.state != .failed, "\(entry.reason ?? "")")
        #expect(try server.requests("/sample.mp3").count == 1)
    }
}
