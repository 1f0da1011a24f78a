import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// What the save client sends beyond `{title, content}`, against a real local HTTP server.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct SaveClientMetadataTests {
    func sentBody(_ article: ExtractedArticle) throws -> [String: String] {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "http://127.0.0.1:1/x"}"#)])
        defer { server.stop() }
        _ = try HTTPSaveClient(backendBaseURL: server.baseURL).save(article)
        let request = try #require(try server.requests().first)
        return try JSONDecoder().decode([String: String].self, from: Data(request.body.utf8))
    }

    @Test func extractionFieldsAreSent() throws {
        let article = ExtractedArticle(title: "T", content: "<p>x</p>", sourceURL: "https://example.org/a",
                                       byline: "Ada", siteName: "Example", publishedTime: "2026-01-02", lang: "en-GB",
                                       dir: "ltr", excerpt: "Summary")
        #expect(try sentBody(article) == ["title": "T", "content": "<p>x</p>", "sourceURL": "https://example.org/a",
                                          "byline": "Ada", "siteName": "Example", "publishedTime": "2026-01-02",
                                          "lang": "en-GB", "dir": "ltr", "excerpt": "Summary"])
    }

    @Test func fieldsTheBackendWouldRefuseAreLeftOutOrShortened() throws {
        let article = ExtractedArticle(title: "T", content: "<p>x</p>", sourceURL: "file:///etc/passwd",
                                       byline: String(repeating: "b", count: 400), lang: "en_US", dir: "Sideways")
        let body = try sentBody(article)
        #expect(Set(body.keys) == ["title", "content", "byline"])
        #expect(body["byline"]?.count == 300)
    }

    @Test func theExpiryIsReadFromTheAnswer() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"url": "http://127.0.0.1:1/x", "expires": "2027-01-15T09:00:00Z", "removed": {"svg": 1}}"#)])
        defer { server.stop() }
        let receipt = try HTTPSaveClient(backendBaseURL: server.baseURL).saveCopy(ExtractedArticle(title: "T", content: "x"))
        #expect(receipt.url.absoluteString == "http://127.0.0.1:1/x")
        #expect(receipt.expires == Date(timeIntervalSince1970: 1_800_003_600))
    }

    @Test func aLongRetryAfterIsReportedAtOnceAsUnavailable() throws {
        let route = TestHTTPServer.Route(status: 429, headers: ["Content-Type": "application/json", "Retry-After": "60"],
                                         body: #"{"error": "Too many saves; try again in 60 s"}"#)
        let server = try TestHTTPServer(routes: ["/save": route])
        defer { server.stop() }
        let error = try #require(throws: SaveError.self) {
            try HTTPSaveClient(backendBaseURL: server.baseURL).save(ExtractedArticle(title: "T", content: "x"))
        }
        #expect(error.description == "Failed to save: Too many saves; try again in 60 s")
        #expect(error.category == .unavailable)
        #expect(try server.requests().count == 1)
    }

    @Test func aShortRetryAfterIsTriedOnceMore() throws {
        let route = TestHTTPServer.Route(status: 429, headers: ["Content-Type": "application/json", "Retry-After": "1"],
                                         body: #"{"error": "Too many saves; try again in 1 s"}"#)
        let server = try TestHTTPServer(routes: ["/save": route])
        defer { server.stop() }
        #expect(throws: SaveError.self) {
            try HTTPSaveClient(backendBaseURL: server.baseURL).save(ExtractedArticle(title: "T", content: "x"))
        }
        #expect(try server.requests().count == 2)
    }
}
