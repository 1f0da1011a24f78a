import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// The Piper spec's save-client table, against a real local HTTP server.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct SaveClientTests {
    let article = ExtractedArticle(title: "A \"quoted\" title", content: "<p>Body ✓</p>")

    func client(_ server: TestHTTPServer, timeout: TimeInterval = 20) throws -> HTTPSaveClient {
        let config = try Config.load(backendFlag: server.baseURL.absoluteString, environment: ["PIPER_HOME": "/nonexistent"])
        return HTTPSaveClient(backendBaseURL: config.backendBaseURL, timeout: timeout)
    }

    @Test func okWithURL() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "http://127.0.0.1:1/0b7e6a3c-1d2e-4f00-8a00-000000000001"}"#)])
        defer { server.stop() }
        let url = try client(server).save(article)
        #expect(url.absoluteString == "http://127.0.0.1:1/0b7e6a3c-1d2e-4f00-8a00-000000000001")
    }

    @Test func serverErrorIsFailedToSave() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"error": "database is down"}"#, status: 500)])
        defer { server.stop() }
        let error = try #require(throws: SaveError.self) { try client(server).save(article) }
        #expect(error.description.hasPrefix("Failed to save"))
        #expect(error.description.contains("500"))
        #expect(error.category == .unavailable)
    }

    @Test func malformedJSONIsAParseError() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "#)])
        defer { server.stop() }
        let error = try #require(throws: SaveError.self) { try client(server).save(article) }
        guard case .malformedResponse = error else {
            Issue.record("expected a parse error, got \(error)")
            return
        }
        #expect(error.description.contains("parse"))
    }

    @Test func stalledServerTimesOut() throws {
        var stall = TestHTTPServer.Route.json(#"{"url": "http://127.0.0.1:1/x"}"#)
        stall.delay = 5
        let server = try TestHTTPServer(routes: ["/save": stall])
        defer { server.stop() }
        let error = try #require(throws: SaveError.self) { try client(server, timeout: 1).save(article) }
        #expect(error == .timedOut(seconds: 1))
        #expect(error.description.contains("timeout"))
    }

    @Test func badRequestCarriesTheServersMessage() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"error": "title is required"}"#, status: 400)])
        defer { server.stop() }
        let error = try #require(throws: SaveError.self) { try client(server).save(article) }
        #expect(error.description == "Failed to save: title is required")
    }

    @Test func requestBodyIsJSONWithTitleAndContent() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "http://127.0.0.1:1/x"}"#)])
        defer { server.stop() }
        _ = try client(server).save(article)
        let request = try #require(try server.requests().first)
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let body = try JSONDecoder().decode([String: String].self, from: Data(request.body.utf8))
        #expect(body == ["title": article.title, "content": article.content])
    }

    @Test func requestURLStartsWithTheConfiguredBackend() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "http://127.0.0.1:1/x"}"#)])
        defer { server.stop() }
        let client = try client(server)
        #expect(client.saveURL.absoluteString.hasPrefix(client.backendBaseURL.absoluteString))
        #expect(client.saveURL.absoluteString == server.baseURL.absoluteString + "/save")
        _ = try client.save(article)
        #expect(try server.requests().map(\.path) == ["/save"])
    }

    @Test func unreachableBackendIsANetworkError() throws {
        let base = URL(string: "http://127.0.0.1:\(try closedPort())")!
        let error = try #require(throws: SaveError.self) { try HTTPSaveClient(backendBaseURL: base, timeout: 5).save(article) }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(error)")
            return
        }
        #expect(error.category == .unavailable)
    }

    @Test func answerThatIsNotAnHTTPURLIsRejected() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "javascript:alert(1)"}"#)])
        defer { server.stop() }
        #expect(throws: SaveError.self) { try client(server).save(article) }
    }
}
