import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Request framing a proxy could read differently (request smuggling): refused with a 400 before
/// any route, and the connection closed, so the bytes after the head are never answered.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct FramingTests {
    /// A request that would be a second one if the server framed the first by its chunks or by
    /// the other Content-Length.
    static let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Sends `bytes` on a fresh connection and reads until the server closes it (or 10 s pass).
    /// Returns what came back and whether the server had closed the connection.
    static func exchange(_ bytes: String, port: UInt16) throws -> (answer: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        connection.send(bytes)
        let answer = connection.readToEnd(timeout: 10)
        return (answer, connection.isClosedByServer)
    }

    static func port(_ backend: Backend) throws -> UInt16 {
        try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
    }

    /// Checks a refusal: one 400 with `message`, the connection closed, the smuggled request unanswered.
    static func expectRefused(_ result: (answer: String, closed: Bool), _ message: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.answer.hasPrefix("HTTP/1.1 400"), "got \(result.answer)", sourceLocation: sourceLocation)
        #expect(result.answer.contains(#"{"error":"\#(message)"}"#), "got \(result.answer)", sourceLocation: sourceLocation)
        #expect(result.closed, "the connection stays open", sourceLocation: sourceLocation)
        #expect(result.answer.components(separatedBy: "HTTP/1.1 ").count == 2,
                "the smuggled request was answered: \(result.answer)", sourceLocation: sourceLocation)
        #expect(!result.answer.contains(#""status":"ok""#), "got \(result.answer)", sourceLocation: sourceLocation)
    }

    @Test func contentLengthWithChunkedIsRefusedAndClosed() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let result = try Self.exchange("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                       + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + Self.smuggled,
                                       port: try Self.port(backend))
        Self.expectRefused(result, "The request has both Content-Length and Transfer-Encoding")
    }

    @Test func conflictingOrRepeatedContentLengthsAreRefused() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let port = try Self.port(backend)
        for lengths in [(2, 40), (2, 2)] {
            let result = try Self.exchange("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                           + "Content-Length: \(lengths.0)\r\nContent-Length: \(lengths.1)\r\n\r\n{}" + Self.smuggled,
                                           port: port)
            Self.expectRefused(result, "The request has more than one Content-Length")
        }
    }

    /// A reader page is answered before the request is parsed (`PreparedAnswers`): the name is
    /// checked on that path too.
    @Test func aMalformedHeaderNameIsRefusedOnACachedPage() async throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let url = try await Client.saveURL(backend.baseURL, title: "Cached", content: "<p>A page read from the cache.</p>")
        let path = try #require(URL(string: url)?.path)
        let port = try Self.port(backend)
        let plain = try Self.exchange("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
        #expect(plain.answer.hasPrefix("HTTP/1.1 200"), "got \(plain.answer.prefix(200))")
        let spaced = try Self.exchange("GET \(path) HTTP/1.1\r\nHost: x\r\nX y: b\r\n\r\n" + Self.smuggled, port: port)
        Self.expectRefused(spaced, "A request header name holds a character a header name may not have")
    }

    @Test func aMalformedHeaderNameIsRefused() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let port = try Self.port(backend)
        // libmicrohttpd hands this name over as "Transfer-Encoding " and frames no body by it.
        let spaced = try Self.exchange("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                       + "Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + Self.smuggled, port: port)
        Self.expectRefused(spaced, "A request header name holds a character a header name may not have")
        let separator = try Self.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nX(a): b\r\n\r\n" + Self.smuggled, port: port)
        Self.expectRefused(separator, "A request header name holds a character a header name may not have")
        let browser = try Self.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nX y: b\r\n\r\n", port: port)
        #expect(browser.answer.hasPrefix("HTTP/1.1 400"), "got \(browser.answer)")
        #expect(browser.answer.contains("<h1>Error 400</h1>"), "got \(browser.answer)")
        #expect(browser.closed)
    }

    @Test func aChunkedUploadAndAContentLengthPostStillWork() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let port = try Self.port(backend)
        let json = #"{"title":"Framed","content":"<p>A body framed the one way it can be.</p>"}"#
        let connection = try RawConnection(port: port)
        let half = json.utf8.count / 2
        let chunks = [String(json.prefix(half)), String(json.dropFirst(half))]
            .map { String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n" }.joined()
        connection.send("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n")
        // The same connection then carries a Content-Length POST, then closes.
        connection.send("POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n" + json)
        let answers = connection.readToEnd(timeout: 10).components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.count == 2, "got \(answers)")
        for answer in answers {
            #expect(answer.hasPrefix("200"), "got \(answer)")
            #expect(answer.contains(#""url":"#), "got \(answer)")
        }
    }

    @Test func theFramingRules() {
        func framing(_ headers: [(String, String)]) -> HeadFraming {
            var framing = HeadFraming()
            for (name, value) in headers { framing.count(name: name, value: value) }
            return framing
        }
        #expect(framing([("Content-Length", "3"), ("Host", "x")]).refusal == nil)
        #expect(framing([("transfer-encoding", " Chunked ")]).refusal == nil)
        #expect(framing([("Transfer-Encoding", "gzip, chunked")]).refusal?.status == 400)
        #expect(framing([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")]).refusal?.status == 400)
        #expect(framing([("content-length", "3"), ("Transfer-Encoding", "chunked")]).refusal?.status == 400)
        #expect(framing([("Content-Length", "3"), ("content-length", "3")]).refusal?.status == 400)
        for name in ["", "X Y", "X\tY", "X:Y", "X(Y)", "X\u{7F}", "Ä"] {
            #expect(framing([(name, "v")]).malformedName, "\(name.debugDescription) passed")
        }
        for name in ["X-Y", "x_y", "A!#$%&'*+-.^_`|~9"] {
            #expect(!framing([(name, "v")]).malformedName, "\(name.debugDescription) was refused")
        }
    }
}
