import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Slow clients from many addresses, each under the per-client limit: together they must not
/// keep another client's saves waiting. Bounds here are functional (answered within 5 s, cut off
/// within 10 s), not timings.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct SlowCrowdTests {
    /// 20 loopback addresses (127.0.0.2 … 127.0.0.21).
    static let crowd = (2...21).map { "127.0.0.\($0)" }

    /// Keeps `perAddress` connections open from each address, each trickling a request head a
    /// byte per round, reopening those the server closes, until `stop` is set.
    static func trickleHeads(port: UInt16, perAddress: Int, stop: Flag) -> [Thread] {
        crowd.map { address in
            let thread = Thread {
                var held: [RawConnection] = []
                while !stop.isSet {
                    held.removeAll { $0.isClosedByServer }
                    while held.count < perAddress, !stop.isSet, let connection = try? RawConnection(port: port, from: address) {
                        connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
                        held.append(connection)
                    }
                    for connection in held { connection.send("X") }
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
            thread.start()
            return thread
        }
    }

    /// One save on a fresh connection: its status line, or "" when no answer came within 5 s.
    static func save(port: UInt16, index: Int) throws -> String {
        let json = #"{"title":"Crowd \#(index)","content":"<p>Saved beside a slow crowd.</p>"}"#
        let connection = try RawConnection(port: port)
        connection.send("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n" + json)
        return connection.readToEnd(timeout: 5).components(separatedBy: "\r\n").first ?? ""
    }

    @Test func savesAreAnsweredBesideTwentyAddressesTricklingHeads() async throws {
        let backend = try startBackend {
            $0.http.connectionLimit = 160
            $0.http.clientLimits.maxConnectionsPerClient = 10      // 20 × 10 = 200 connections > 160
            $0.http.clientLimits.maxSlowConnections = 80
        }
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        let stop = Flag()
        _ = Self.trickleHeads(port: port, perAddress: 10, stop: stop)
        defer { stop.set() }
        try await Task.sleep(for: .seconds(1))      // the crowd has opened its connections
        for index in 0..<8 {
            let status = try Self.save(port: port, index: index)
            #expect(status == "HTTP/1.1 200 OK", "save \(index) got \(status.isEmpty ? "no answer within 5 s" : status)")
        }
    }

    @Test func aReaderBelowTheSendFloorIsCutOff() async throws {
        let backend = try startBackend {
            $0.http.clientLimits.minSendBytesPerSecond = 64 * 1024
            $0.http.clientLimits.sendWindow = 1
            $0.http.clientLimits.sweepInterval = 0.1
            $0.http.clientLimits.headTimeout = 60    // the idle deadline must not be what closes it
            $0.http.maxBodyBytes = 16 * 1024 * 1024
        }
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        let paragraph = "<p>" + String(repeating: "A slow reader reads this. ", count: 40) + "</p>"
        // Larger than the 4 MiB a loopback send buffer grows to: libmicrohttpd is still sending.
        let url = try await Client.saveURL(backend.baseURL, title: "Large", content: String(repeating: paragraph, count: 6000))
        let path = try #require(URL(string: url)?.path)
        let reader = try RawConnection(port: port, receiveBuffer: 4096)
        reader.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        // 512 bytes every 0.1 s: about 5 KB/s, each read restarting libmicrohttpd's own timeout.
        var received = 0
        var closed = false
        for _ in 0..<100 {
            guard let got = reader.read(upTo: 512, timeout: 0.1) else { closed = true; break }
            received += got
            try await Task.sleep(for: .milliseconds(100))   // the pace is the point: a reader this slow
        }
        #expect(closed, "still reading after 10 s (\(received) bytes)")
        #expect(received < 6000 * paragraph.utf8.count, "the whole page arrived: \(received) bytes")
    }

    @Test func theReaderAndBudgetRules() {
        var limits = ClientLimits()
        limits.minSendBytesPerSecond = 1000
        limits.sendWindow = 10
        #expect(ConnectionWatch.readerVerdict(acked: 500, seconds: 5, limits: limits) == nil, "within the window")
        #expect(ConnectionWatch.readerVerdict(acked: 9_000, seconds: 10, limits: limits) == .slowReader(bytesPerSecond: 1000))
        #expect(ConnectionWatch.readerVerdict(acked: 10_000, seconds: 10, limits: limits) == nil)
        #expect(ConnectionWatch.Verdict.slowReader(bytesPerSecond: 1000).answer.isEmpty, "nothing is written mid-answer")
        #expect(ConnectionWatch.Verdict.evicted.answer.starts(with: Array("HTTP/1.1 408".utf8)))
        limits.minSendBytesPerSecond = 0
        #expect(ConnectionWatch.readerVerdict(acked: 0, seconds: 600, limits: limits) == nil, "0 disables")
        #expect(ConnectionGuard.slowBudget(512, connectionLimit: 1024) == 512)
        #expect(ConnectionGuard.slowBudget(1000, connectionLimit: 1024) == 768, "below libmicrohttpd's own limit")
        #expect(ConnectionGuard.slowBudget(0, connectionLimit: 1024) == 0)
        var watch = ConnectionWatch(since: 0, fd: -1, client: "192.0.2.1", counted: true)
        for (phase, waiting) in [(ConnectionWatch.Phase.head, true), (.idle, true), (.body, true),
                                 (.answering, false), (.sending, false), (.closing, false)] {
            watch.phase = phase
            #expect(watch.isWaitingOnClient == waiting, "\(phase)")
        }
    }
}
