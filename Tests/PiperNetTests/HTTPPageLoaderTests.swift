import Extraction
import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// The HTTP loader against a real local server.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct HTTPPageLoaderTests {
    let page = "<html><head><title>T</title></head><body><p>Hello</p></body></html>"

    @Test func loadsAPageWithItsContentTypeAndADesktopUserAgent() throws {
        let server = try TestHTTPServer(routes: ["/a": .html(page)])
        defer { server.stop() }
        let loaded = try HTTPPageLoader().load(server.url("/a"), cookies: [])
        #expect(String(decoding: loaded.body, as: UTF8.self) == page)
        #expect(loaded.charset == "utf-8")
        #expect(loaded.statusCode == 200)
        #expect(loaded.loader == .http)
        let ua = try #require(try server.requests().first?.headers["User-Agent"])
        #expect(ua.contains("Mozilla/5.0") && ua.contains("Linux"))
    }

    /// A post's API call keeps an error answer (its body says why) where a page load throws on the
    /// status; it asks for JSON, sends no cookies and follows redirects as a page load does.
    @Test func anAPIAnswerIsKeptWhateverItsStatus() throws {
        let server = try TestHTTPServer(routes: [
            "/api/v1/statuses/9": .json(#"{"error":"Record not found"}"#, status: 404),
            "/r/a/s/b": TestHTTPServer.Route(status: 302, headers: ["Location": "/r/a/comments/c/"]),
            "/r/a/comments/c/": .html("Blocked", status: 403),
        ])
        defer { server.stop() }
        let gone = try HTTPPageLoader().loadAnswer(server.url("/api/v1/statuses/9"))
        #expect(gone.statusCode == 404 && String(decoding: gone.body, as: UTF8.self) == #"{"error":"Record not found"}"#)
        #expect(try server.requests("/api/v1/statuses/9").first?.header("Accept") == "application/json")
        #expect(throws: LoadError.httpStatus(server.url("/api/v1/statuses/9"), 404)) { try HTTPPageLoader().load(server.url("/api/v1/statuses/9"), cookies: []) }
        let followed = try HTTPPageLoader().loadAnswer(server.url("/r/a/s/b"))
        #expect(followed.statusCode == 403 && followed.finalURL == server.url("/r/a/comments/c/"))
    }

    @Test func followsRedirectsUpToTen() throws {
        var routes: [String: TestHTTPServer.Route] = ["/end": .html(page)]
        for i in 0..<10 {
            routes["/r\(i)"] = TestHTTPServer.Route(status: 302, headers: ["Location": i == 9 ? "/end" : "/r\(i + 1)"])
        }
        routes["/loop"] = TestHTTPServer.Route(status: 302, headers: ["Location": "/loop"])
        let server = try TestHTTPServer(routes: routes)
        defer { server.stop() }
        let loaded = try HTTPPageLoader().load(server.url("/r0"), cookies: [])
        #expect(loaded.finalURL == server.url("/end"))
        #expect(loaded.requestedURL == server.url("/r0"))
        #expect(throws: LoadError.tooManyRedirects(server.url("/loop"))) {
            try HTTPPageLoader().load(server.url("/loop"), cookies: [])
        }
    }

    @Test func sendsCookiesOnlyToTheirDomains() throws {
        let server = try TestHTTPServer(routes: ["/a": .html(page)])
        defer { server.stop() }
        let cookies = [
            Cookie(domain: "127.0.0.1", includeSubdomains: false, secure: false, name: "mine", value: "yes"),
            Cookie(domain: ".x.com", secure: false, name: "auth_token", value: "secret"),
        ]
        _ = try HTTPPageLoader().load(server.url("/a"), cookies: cookies)
        let header = try #require(try server.requests().first?.headers["Cookie"])
        #expect(header.contains("mine=yes"))
        #expect(!header.contains("secret"))
    }

    @Test func decodesGzip() throws {
        var route = TestHTTPServer.Route.html(page)
        route.gzip = true
        let server = try TestHTTPServer(routes: ["/z": route])
        defer { server.stop() }
        let loaded = try HTTPPageLoader().load(server.url("/z"), cookies: [])
        #expect(String(decoding: loaded.body, as: UTF8.self) == page)
        let accept = try #require(try server.requests().first?.headers["Accept-Encoding"])
        #expect(accept.contains("gzip") && accept.contains("br"))
    }

    @Test func handsTheHeaderCharsetOnAndKeepsTheBytes() throws {
        let latin1: [UInt8] = Array("<p>caf".utf8) + [0xE9] + Array("</p>".utf8)
        var route = TestHTTPServer.Route(headers: ["Content-Type": "text/html; charset=ISO-8859-1"])
        route.bodyBase64 = Data(latin1).base64EncodedString()
        let server = try TestHTTPServer(routes: ["/l": route])
        defer { server.stop() }
        let loaded = try HTTPPageLoader().load(server.url("/l"), cookies: [])
        #expect(loaded.charset == "ISO-8859-1")
        #expect([UInt8](loaded.body) == latin1)
        let document = ArticlePipeline.parse([UInt8](loaded.body), transportEncoding: loaded.charset, url: loaded.finalURL.absoluteString)
        withExtendedLifetime(document) { #expect(document.body?.textContent == "café") }
    }

    @Test func capsTheSize() throws {
        let server = try TestHTTPServer(routes: ["/big": .html(String(repeating: "x", count: 50_000))])
        defer { server.stop() }
        var loader = HTTPPageLoader()
        loader.maxBytes = 10_000
        #expect(throws: LoadError.tooLarge(server.url("/big"), limitBytes: 10_000)) { try loader.load(server.url("/big"), cookies: []) }
    }

    @Test func timesOut() throws {
        var slow = TestHTTPServer.Route.html(page)
        slow.delay = 5
        let server = try TestHTTPServer(routes: ["/slow": slow])
        defer { server.stop() }
        var loader = HTTPPageLoader()
        loader.totalTimeout = 1
        let error = try #require(throws: LoadError.self) { try loader.load(server.url("/slow"), cookies: []) }
        #expect(error == .timedOut(server.url("/slow"), seconds: 1))
        #expect(error.category == .unavailable)
    }

    @Test func anHTTPErrorNamesItsStatus() throws {
        let server = try TestHTTPServer(routes: ["/gone": .html("nope", status: 410)])
        defer { server.stop() }
        let error = try #require(throws: LoadError.self) { try HTTPPageLoader().load(server.url("/gone"), cookies: []) }
        #expect(error.description.contains("410"))
    }

    @Test func stopsAtTheHeadersForMedia() throws {
        let audio = TestHTTPServer.Route(headers: ["Content-Type": "audio/mpeg"], body: String(repeating: "A", count: 100_000))
        let server = try TestHTTPServer(routes: ["/download": audio])
        defer { server.stop() }
        let loaded = try HTTPPageLoader().load(server.url("/download"), cookies: [])
        #expect(loaded.contentType == "audio/mpeg")
        #expect(loaded.body.isEmpty)
    }

    @Test func unreachableHostIsANetworkError() throws {
        let url = URL(string: "http://127.0.0.1:\(try closedPort())/a")!
        let error = try #require(throws: LoadError.self) { try HTTPPageLoader().load(url, cookies: []) }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(error)")
            return
        }
    }
}
