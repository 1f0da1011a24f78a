import Dispatch
import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// `HTTPServer.stop(grace:)` on a real libmicrohttpd server and raw connections: the port
/// refuses at once, an answer that comes within the grace period is sent whole, one that does
/// not is replaced by 503 with `Retry-After`, and a request on a kept-alive connection during
/// the stop is told to come back.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct GracefulStopTests {
    /// Answers at once, except `POST /held`, answered when the test opens `gate` (a save or a
    /// share whose work is not done yet).
    struct HeldResponder: HTTPResponder {
        let gate: DispatchSemaphore

        func respond(to request: HTTPRequest) throws -> HTTPResponse { .json(200, ["answer": "at once"]) }

        func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
            guard request.path == "/held" else { return reply(Result { try respond(to: request) }) }
            DispatchQueue.global().async { [gate] in
                gate.wait()
                reply(.success(.json(200, ["answer": "held, then done"])))
            }
        }
    }

    static func server(_ gate: DispatchSemaphore) throws -> HTTPServer {
        var options = HTTPServerOptions()
        options.threads = 2
        options.log = nil
        return try HTTPServer(responder: HeldResponder(gate: gate), options: options)
    }

    /// Starts `stop(grace:)` on a thread of its own; the count of 503s it answered, once it returns.
    static func stopInBackground(_ server: HTTPServer, grace: TimeInterval) -> Task<Int, Never> {
        Task.detached { server.stop(grace: grace) }
    }

    @Test func anAnswerThatComesWithinTheGraceIsSentWhole() async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try Self.server(gate)
        let held = try RawConnection(port: server.port)
        held.send("POST /held HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(held.read(upTo: 1, timeout: 0.2) == 0, "nothing answered yet")

        let stopping = Self.stopInBackground(server, grace: 60)
        #expect(try await eventually(within: 20) { ServerLifecycleTests.refuses(server.port) }, "new connections are refused")
        gate.signal()
        let answer = held.readToEnd(timeout: 20)
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix(#"{"answer":"held, then done"}"#), "\(answer)")
        #expect(await stopping.value == 0, "nothing answered 503")
    }

    @Test func anAnswerPastTheGraceIs503AndAKeptAliveConnectionIsToldToComeBack() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }   // the late answer, after the stop, is dropped
        let server = try Self.server(gate)
        let kept = try RawConnection(port: server.port)
        kept.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await eventually(within: 20) { (kept.read(upTo: 4096, timeout: 0.5) ?? 0) > 0 }, "the first answer on the kept-alive connection")
        let held = try RawConnection(port: server.port)
        held.send("POST /held HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(held.read(upTo: 1, timeout: 0.2) == 0, "nothing answered yet")

        let stopping = Self.stopInBackground(server, grace: 5)
        #expect(try await eventually(within: 20) { ServerLifecycleTests.refuses(server.port) }, "new connections are refused")
        kept.send("GET /second HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n")
        let comeBack = kept.readToEnd(timeout: 20)
        #expect(comeBack.hasPrefix("HTTP/1.1 503") && comeBack.contains("Retry-After: \(HTTPServer.retryAfterSeconds)"), "\(comeBack)")
        #expect(comeBack.contains("try again"), "a whole answer: \(comeBack)")

        let cut = held.readToEnd(timeout: 30)
        #expect(cut.hasPrefix("HTTP/1.1 503") && cut.contains("Retry-After: \(HTTPServer.retryAfterSeconds)"), "\(cut)")
        #expect(cut.hasSuffix("\"}"), "a whole JSON answer, not half of one: \(cut)")
        #expect(await stopping.value == 1, "the held request was answered 503")
    }
}
