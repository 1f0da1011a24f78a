import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Hostile clients: connections that trickle bytes, heads too large to be real. Each test runs a
/// real server on port 0; deadlines in tests are functional bounds, not timings.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct SlowClientTests {
    /// Opens `count` connections from `source` that each send a head one byte at a time, every
    /// `interval` seconds, until `stop` is set. Returns the connections.
    static func trickle(_ count: Int, port: UInt16, from source: String) throws -> [RawConnection] {
        var held: [RawConnection] = []
        for _ in 0..<count {
            // A refused connection may fail to open at all once the backlog is full.
            guard let connection = try? RawConnection(port: port, from: source) else { continue }
            connection.send("G")
            held.append(connection)
        }
        return held
    }

    @Test func tricklingClientsDoNotShutOutAnother() async throws {
        let backend = try startBackend {
            $0.http.connectionLimit = 24
            $0.http.clientLimits.maxConnectionsPerClient = 4
            $0.http.clientLimits.headTimeout = 0   // the per-client limit alone must hold
        }
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        // More connections than the whole server takes, from one other client address.
        let attacker = try Self.trickle(40, port: port, from: "127.0.0.2")
        let stop = Flag()
        let trickler = Thread {
            while !stop.isSet {
                for connection in attacker { connection.send("E") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        trickler.start()
        defer { stop.set() }

        for index in 0..<5 {
            let url = try await Client.saveURL(backend.baseURL, title: "Saved \(index)", content: "<p>Still served \(index)</p>")
            let page = try await Client.get(url)
            #expect(page.status == 200)
            #expect(page.text.contains("Still served \(index)"))
        }
        let open = attacker.filter { !$0.isClosedByServer }.count
        // The limit, plus at most one connection per worker thread accepted at the same moment.
        #expect(open <= 4 + 2, "the trickling client holds \(open) connections")
    }

    /// Sends `start`, then one `byte` every 100 ms (at most 100) until the server closes the
    /// connection, and returns what it answered.
    static func trickle(_ connection: RawConnection, start: String, byte: String) -> String {
        connection.send(start)
        var sent = 0
        while !connection.isClosedByServer, sent < 100 {
            connection.send(byte)
            sent += 1
            Thread.sleep(forTimeInterval: 0.1)   // the pace is the point: a client this slow
        }
        return connection.readToEnd(timeout: 5)
    }

    /// A backend whose heads must arrive within 1 s (checked every 0.1 s), and a connection to it.
    static func connectionWithAOneSecondHeadDeadline() throws -> (Backend, RawConnection) {
        let backend = try startBackend {
            $0.http.clientLimits.headTimeout = 1
            $0.http.clientLimits.sweepInterval = 0.1
        }
        do {
            let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
            return (backend, try RawConnection(port: port))
        } catch {
            backend.stop()
            throw error
        }
    }

    @Test func aHeadThatTricklesIsCutOffWithJSON() throws {
        let (backend, connection) = try Self.connectionWithAOneSecondHeadDeadline()
        defer { backend.stop() }
        let answer = Self.trickle(connection, start: "GET / HTTP/1.1\r\nHost: x\r\n", byte: "X")
        #expect(answer.hasPrefix("HTTP/1.1 408"), "got \(answer)")
        #expect(answer.contains(#"{"error":"The request head did not arrive within 1 s"}"#), "got \(answer)")
    }

    @Test func anIdleKeepAliveConnectionIsClosedWithoutA408() throws {
        let (backend, connection) = try Self.connectionWithAOneSecondHeadDeadline()
        defer { backend.stop() }
        connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        // Read to the end: the answer, then the close once the connection has idled past 1 s.
        // A 408 there would be read by a client reusing the connection as its next answer.
        let answer = connection.readToEnd(timeout: 10)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "got \(answer)")
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only, got \(answer)")
    }

    @Test func aBodyBelowTheRateFloorIsCutOff() throws {
        let backend = try startBackend {
            $0.http.clientLimits.minBodyBytesPerSecond = 1000
            $0.http.clientLimits.bodyRateGrace = 1
            $0.http.clientLimits.sweepInterval = 0.1
        }
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        let connection = try RawConnection(port: port)
        let answer = Self.trickle(connection,
                                  start: "POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
                                  byte: " ")
        #expect(answer.contains("The request body arrived slower than 1000 bytes per second"), "got \(answer)")
    }

    @Test func overlongURLsAndHeadsGetTheDocumentedError() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        func exchange(_ head: String) throws -> String {
            let connection = try RawConnection(port: port)
            connection.send(head + "Host: x\r\nConnection: close\r\n\r\n")
            return connection.readToEnd(timeout: 10)
        }
        let longPath = "/" + String(repeating: "a", count: 20_000)
        let uri = try exchange("GET \(longPath) HTTP/1.1\r\n")
        #expect(uri.hasPrefix("HTTP/1.1 414"), "got \(uri.prefix(200))")
        #expect(uri.contains(#"{"error":"The URL is longer than the limit of 8192 bytes"}"#))
        let longQuery = try exchange("GET /healthz?q=\(String(repeating: "b", count: 20_000)) HTTP/1.1\r\n")
        #expect(longQuery.hasPrefix("HTTP/1.1 414"), "got \(longQuery.prefix(200))")

        let headers = (0..<40).map { "X-Filler-\($0): \(String(repeating: "c", count: 1000))\r\n" }.joined()
        let large = try exchange("GET /healthz HTTP/1.1\r\n" + headers)
        #expect(large.hasPrefix("HTTP/1.1 431"), "got \(large.prefix(200))")
        #expect(large.contains(#"{"error":"The request headers are larger than the limit of 32768 bytes"}"#))

        let browser = try exchange("GET \(longPath) HTTP/1.1\r\nAccept: text/html,*/*;q=0.8\r\n")
        #expect(browser.hasPrefix("HTTP/1.1 414"))
        #expect(browser.lowercased().contains("content-type: text/html"))
        #expect(browser.contains("<h1>Error 414</h1>"))
    }

    @Test func theDeadlineRules() {
        var limits = ClientLimits()
        limits.headTimeout = 2
        limits.minBodyBytesPerSecond = 100
        limits.bodyRateGrace = 5
        let second: UInt64 = 1_000_000_000
        var watch = ConnectionWatch(since: 0, fd: -1, client: "192.0.2.1", counted: true)
        #expect(watch.verdict(now: 1 * second, limits: limits) == nil)
        #expect(watch.verdict(now: 3 * second, limits: limits) == .headTimeout(seconds: 2))
        #expect(ConnectionWatch.Verdict.headTimeout(seconds: 2).answer.starts(with: Array("HTTP/1.1 408".utf8)))
        watch.phase = .idle
        #expect(watch.verdict(now: 1 * second, limits: limits) == nil)
        #expect(watch.verdict(now: 3 * second, limits: limits) == .idle)
        #expect(ConnectionWatch.Verdict.idle.answer.isEmpty, "an idle connection is closed without a 408")
        watch.phase = .body
        watch.bytes = 300
        #expect(watch.verdict(now: 4 * second, limits: limits) == nil, "within the grace period")
        #expect(watch.verdict(now: 6 * second, limits: limits) == .tooSlow(bytesPerSecond: 100))
        watch.bytes = 700
        #expect(watch.verdict(now: 6 * second, limits: limits) == nil)
        watch.phase = .answering
        #expect(watch.verdict(now: 600 * second, limits: limits) == nil)
        limits.headTimeout = 0
        watch.phase = .head
        #expect(watch.verdict(now: 600 * second, limits: limits) == nil, "0 disables")
        // A phase that began after the sweep read its clock is young, not 584 years old.
        limits.headTimeout = 2
        watch.since = 10 * second
        #expect(watch.verdict(now: 10 * second - 1, limits: limits) == nil)
        watch.phase = .body
        #expect(watch.verdict(now: 10 * second - 1, limits: limits) == nil)
    }
}

/// A flag one thread sets and another polls.
///
/// `@unchecked Sendable`: `value` is only touched while holding `lock`.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
