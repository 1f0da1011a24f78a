import Foundation
import MediaImport
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer
#if canImport(Glibc)
import Glibc
#endif

/// The whole server started and stopped in-process through its one owner (`ServerApp`), as
/// `piper serve` does: the real SQLite (or PostgreSQL) store, the share services, the agent on
/// its thread and the HTTP listener on port 0.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ServerLifecycleTests {
    /// A part that notes when it is started and stopped, in a log every part of a test shares
    /// (the app's own port, so a test can see the order).
    final class NotedPart: ServerPart, @unchecked Sendable {
        let name: String
        let log: NoteLog
        let failsToStart: Bool
        init(_ name: String, log: NoteLog, failsToStart: Bool = false) {
            self.name = name
            self.log = log
            self.failsToStart = failsToStart
        }
        func start() throws {
            log.add("start \(name)")
            if failsToStart { throw StoreError(.unavailable, "\(name) cannot start") }
        }
        func health() -> PartHealth { .ok("noted") }
        func stop(deadline: Date) { log.add("stop \(name)") }
    }

    final class NoteLog: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func configuration(home: URL, database: ServerDatabase? = nil, parts: [any ServerPart] = []) -> ServerConfiguration {
        let state = StateFolder(url: home)
        var backend = BackendConfiguration()
        backend.http.port = 0
        backend.http.threads = 2
        backend.http.log = nil
        let services = ShareServices(cookies: FileCookieStore(state: state), httpLoader: HTTPPageLoader(), browserLoader: nil,
                                     extractor: ReadabilityExtractor(), media: JournalMediaQueue(state: state), jobs: JournalJobs(state: state),
                                     fetchGuard: FetchGuard(policy: FetchPolicy()), state: state)
        var configuration = ServerConfiguration(backend: backend, database: database ?? .sqlite(path: home.appendingPathComponent("serve.sqlite").path),
                                                state: state)
        var settings = AgentSettings()
        settings.pollInterval = 0.05
        configuration.sharing = ServerSharing(services: services, parts: parts, agent: { [settings] stop, _ in
            Agent(state: state, settings: settings, importer: nil, stop: stop)
        })
        configuration.grace = 5
        configuration.log = { _ in }
        return configuration
    }

    /// True when a TCP connection to the port is refused (nothing listens there any more).
    static func refuses(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result != 0 && errno == ECONNREFUSED
    }

    @Test func startsEveryPartReportsThemAndStopsInReverseOrder() async throws {
        try await startAndStop(database: nil)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func startsAndStopsOnPostgreSQL() async throws {
        try await startAndStop(database: .postgres(url: try PostgresTestDatabase.url(), connections: 4))
    }

    func startAndStop(database: ServerDatabase?) async throws {
        let home = try freshDirectory("lifecycle")
        defer { try? FileManager.default.removeItem(at: home) }
        let log = NoteLog()
        let app = ServerApp(Self.configuration(home: home, database: database, parts: [NotedPart("browser", log: log)]))
        try app.start()
        let backend = try #require(app.backend)
        let port = backend.port

        let reply = try await Client.get(backend.baseURL + "/healthz")
        #expect(reply.status == 200)
        let json = try reply.json()
        #expect(json["status"] as? String == "ok" && json["store"] as? String == (database == nil ? "sqlite" : "postgres"), "\(reply.text)")
        let parts = try #require(json["parts"] as? [[String: Any]], "\(reply.text)")
        #expect(parts.map { $0["name"] as? String ?? "" } == ["database", "browser", "agent", "http"])
        #expect(parts.allSatisfy { $0["healthy"] as? Bool == true }, "\(reply.text)")
        #expect(app.agentIsRunning, "the agent works the journal while the server runs")

        let report = app.stop()
        #expect(report.parts.map(\.name) == ["http", "agent", "browser", "database"])
        #expect(log.all == ["start browser", "stop browser"])
        #expect(Self.refuses(port), "the port no longer accepts connections")
        #expect(!app.agentIsRunning, "the agent's thread has returned")
        #expect(app.backend == nil && app.credentials == nil)
        #expect(app.stop().parts.isEmpty, "a second stop has nothing left to stop")
    }

    @Test func aPartThatCannotStartStopsThoseStartedBeforeIt() throws {
        let home = try freshDirectory("lifecycle-fail")
        defer { try? FileManager.default.removeItem(at: home) }
        let log = NoteLog()
        let app = ServerApp(Self.configuration(home: home, parts: [NotedPart("first", log: log), NotedPart("second", log: log, failsToStart: true)]))
        #expect(throws: StoreError.self) { try app.start() }
        #expect(log.all == ["start first", "start second", "stop first"])
        #expect(app.backend == nil, "the listener after it never started")
        #expect(!app.agentIsRunning, "nor did the agent")
    }

    @Test func aDatabaseThatCannotOpenSaysWhichAndStartsNothing() throws {
        let home = try freshDirectory("lifecycle-db")
        defer { try? FileManager.default.removeItem(at: home) }
        let log = NoteLog()
        let path = home.appendingPathComponent("missing/folder/serve.sqlite").path
        let app = ServerApp(Self.configuration(home: home, database: .sqlite(path: path), parts: [NotedPart("browser", log: log)]))
        let error = try #require(throws: DatabaseOpenError.self) { try app.start() }
        #expect(error.description.hasPrefix("Cannot open the database \(path) ("))
        #expect(log.all.isEmpty)
    }

    @Test func aPartThatFailsShowsOnHealthzWithoutTakingTheServerOut() async throws {
        let home = try freshDirectory("lifecycle-health")
        defer { try? FileManager.default.removeItem(at: home) }
        final class Failing: ServerPart {
            let name = "browser"
            func start() throws {}
            func health() -> PartHealth { .failing("crashed") }
            func stop(deadline: Date) {}
        }
        let app = ServerApp(Self.configuration(home: home, parts: [Failing()]))
        try app.start()
        defer { app.stop() }
        let reply = try await Client.get(try #require(app.backend).baseURL + "/healthz")
        #expect(reply.status == 200)
        let json = try reply.json()
        #expect(json["status"] as? String == "degraded", "\(reply.text)")
        let browser = (json["parts"] as? [[String: Any]])?.first { $0["name"] as? String == "browser" }
        #expect(browser?["healthy"] as? Bool == false && browser?["detail"] as? String == "crashed", "\(reply.text)")
    }
}
