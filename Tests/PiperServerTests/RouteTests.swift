import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Every row of the route table, against a real server on port 0 with the memory store.
@Suite(.ownThread) struct RouteTests {
    @Test func saveAnswersAURLUnderThePublicURLAndItsExpiry() async throws {
        let backend = try startBackend { $0.publicURL = "https://read.example.org/" }
        let reply = try await Client.save(backend.baseURL, title: "A title", content: "<p>Body text</p>")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
        let object = try reply.json()
        #expect(Set(object.keys) == ["url", "expires"])
        let url = try #require(object["url"] as? String)
        #expect(url.hasPrefix("https://read.example.org/"))
        let id = String(url.dropFirst("https://read.example.org/".count))
        #expect(UUIDPath.id(fromPath: "/" + id) == id)
    }

    @Test func savedArticleIsServedAsAReaderPage() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "Tom & Jerry <3", content: "<p>Hello, reader.</p>")
        #expect(url.hasPrefix(backend.baseURL + "/"))
        let page = try await Client.get(url)
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<title>Tom &amp; Jerry &lt;3</title>"))
        #expect(page.text.contains("<h1>Tom &amp; Jerry &lt;3</h1>"))
        #expect(page.text.contains("<meta property=\"og:title\" content=\"Tom &amp; Jerry &lt;3\">"))
        #expect(page.text.contains("<meta property=\"og:type\" content=\"article\">"))
        #expect(page.text.contains("<meta charset=\"utf-8\">"))
        #expect(page.text.contains("<article itemscope itemtype=\"https://schema.org/Article\">"))
        #expect(page.text.contains("Hello, reader."))
        let csp = try #require(page.header("Content-Security-Policy"))
        #expect(csp.contains("default-src 'none'"))
        #expect(csp.contains("frame-ancestors 'none'"))
        #expect(csp.contains("style-src 'sha256-"))
        #expect(!csp.contains("script-src"))
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
    }

    @Test func readerIDsAreCaseInsensitive() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "Case", content: "<p>x</p>")
        let id = try #require(url.split(separator: "/").last)
        let page = try await Client.get(backend.baseURL + "/" + id.uppercased())
        #expect(page.status == 200)
        #expect(page.text.contains("<title>Case</title>"))
    }

    @Test(arguments: [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("\"just a string\"", "JSON object"),
        ("", "empty"),
        (#"{"content": "<p>x</p>"}"#, "'title'"),
        (#"{"title": "T"}"#, "'content'"),
        (#"{"title": "  \n ", "content": "<p>x</p>"}"#, "'title' is empty"),
        (#"{"title": "T", "content": "   "}"#, "'content' is empty"),
        (#"{"title": 5, "content": "<p>x</p>"}"#, "'title' must be a string"),
        (#"{"title": "T", "content": null}"#, "'content'"),
    ])
    func badSaveBodiesAre400WithAMessage(body: String, expected: String) async throws {
        let backend = try startBackend()
        let reply = try await Client.send("POST", backend.baseURL + "/save", body: Data(body.utf8))
        #expect(reply.status == 400)
        let message = try #require(try reply.json()["error"] as? String)
        #expect(message.contains(expected), "message was: \(message)")
        #expect(try reply.json()["url"] == nil)
    }

    @Test func bodyOverTheLimitIs413() async throws {
        let backend = try startBackend { $0.http.maxBodyBytes = 4096 }
        let big = String(repeating: "a", count: 5000)
        let reply = try await Client.save(backend.baseURL, title: "Big", content: big)
        #expect(reply.status == 413)
        #expect((try reply.json()["error"] as? String)?.contains("4096") == true)
        let small = try await Client.save(backend.baseURL, title: "Small", content: "<p>ok</p>")
        #expect(small.status == 200)
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        let backend = try startBackend { $0.http.maxBodyBytes = 4096 }
        let dir = try freshDirectory("chunked")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("body.json")
        try Data(#"{"title":"T","content":"\#(String(repeating: "a", count: 10_000))"}"#.utf8).write(to: file)
        let (_, code) = try runProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                          "-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/json",
                                                          "--data-binary", "@" + file.path, backend.baseURL + "/save"])
        #expect(code == "413")
    }

    /// A client that sends its whole body before it reads (no `Expect: 100-continue`, as
    /// URLSession on Linux) still reads the 413: the server reads the body to its end before it
    /// answers, instead of closing the connection under the upload (the client then saw a
    /// broken pipe or a reset, not the answer).
    @Test func aClientStillSendingReadsThe413() throws {
        let backend = try startBackend { $0.http.maxBodyBytes = 64 * 1024 }
        defer { backend.stop() }
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        let body = #"{"title":"T","content":""# + String(repeating: "a", count: 200_000) + #""}"#
        for _ in 0..<3 {
            let connection = try RawConnection(port: port)
            let head = "POST /save HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n"
            let utf8 = Array(body.utf8)
            let chunks = stride(from: 0, to: utf8.count, by: 16 * 1024).map {
                String(decoding: utf8[$0..<min($0 + 16 * 1024, utf8.count)], as: UTF8.self)
            }
            var sent = connection.send(head)
            for chunk in chunks where sent {
                sent = connection.send(chunk)
                usleep(2_000)
            }
            #expect(sent, "the server closed the connection under the upload")
            let answer = connection.readToEnd(timeout: 5)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "got \(answer.prefix(200))")
        }
    }

    @Test func headServesHeadersOnly() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "Head", content: "<p>x</p>")
        let reply = try await Client.send("HEAD", url)
        #expect(reply.status == 200)
        #expect(reply.body.isEmpty)
        #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
    }

    @Test func defaultLimitIsFiveMegabytes() async throws {
        let backend = try startBackend()
        let big = String(repeating: "a", count: 5 * 1024 * 1024 + 10)
        let reply = try await Client.save(backend.baseURL, title: "Big", content: big)
        #expect(reply.status == 413)
    }

    @Test func saveRateLimitIs429WithRetryAfter() async throws {
        let clock = TestClock()
        let backend = try startBackend(clock: clock) {
            $0.savesPerMinute = 30
            $0.saveBurst = 3
        }
        for _ in 0..<3 {
            #expect(try await Client.save(backend.baseURL, title: "T", content: "<p>x</p>").status == 200)
        }
        let limited = try await Client.save(backend.baseURL, title: "T", content: "<p>x</p>")
        #expect(limited.status == 429)
        let retry = try #require(limited.header("Retry-After").flatMap { Int($0) })
        #expect(retry >= 1 && retry <= 2)
        #expect(try limited.json()["error"] is String)
        clock.advance(2.5)
        #expect(try await Client.save(backend.baseURL, title: "T", content: "<p>x</p>").status == 200)
    }

    @Test func rateLimitFollowsXForwardedForOnlyFromTrustedProxies() async throws {
        // A frozen clock: no token refills between requests however slow the machine is.
        let clock = TestClock()
        let trusted = try startBackend(clock: clock) {
            $0.savesPerMinute = 1
            $0.saveBurst = 1
            $0.trustedProxies = ["127.0.0.1"]
        }
        func save(_ backend: Backend, as client: String) async throws -> Int {
            let body = try JSONSerialization.data(withJSONObject: ["title": "T", "content": "<p>x</p>"])
            return try await Client.send("POST", backend.baseURL + "/save", body: body,
                                         headers: ["X-Forwarded-For": "198.51.100.9, \(client)"]).status
        }
        #expect(try await save(trusted, as: "203.0.113.1") == 200)
        #expect(try await save(trusted, as: "203.0.113.2") == 200)
        #expect(try await save(trusted, as: "203.0.113.1") == 429)

        let untrusted = try startBackend(clock: clock) {
            $0.savesPerMinute = 1
            $0.saveBurst = 1
        }
        #expect(try await save(untrusted, as: "203.0.113.1") == 200)
        #expect(try await save(untrusted, as: "203.0.113.2") == 429)   // same TCP peer
    }

    @Test func storeFailureIs500AndNeverReturnsAURL() async throws {
        let backend = try startBackend(store: FailingStore())
        let reply = try await Client.save(backend.baseURL, title: "T", content: "<p>x</p>")
        #expect(reply.status == 500)
        let object = try reply.json()
        #expect(object["url"] == nil)
        #expect(object["error"] is String)
        #expect(!reply.text.contains("disk on fire"))
        let read = try await Client.get(backend.baseURL + "/" + UUID().uuidString.lowercased())
        #expect(read.status == 500)
    }

    @Test(arguments: [
        "/6f1c1d2e-9a4b-4c3d-8e2f-1a2b3c4d5e6f",   // well-formed, unknown
        "/not-a-uuid",
        "/6f1c1d2e-9a4b-1c3d-8e2f-1a2b3c4d5e6f",   // version 1
        "/6f1c1d2e-9a4b-4c3d-7e2f-1a2b3c4d5e6f",   // bad variant
        "/6f1c1d2e9a4b4c3d8e2f1a2b3c4d5e6f",
        "/6f1c1d2e-9a4b-4c3d-8e2f-1a2b3c4d5e6f/extra",
        "/",
    ])
    func unknownOrMalformedIDsAre404(path: String) async throws {
        let backend = try startBackend()
        let reply = try await Client.get(backend.baseURL + path)
        #expect(reply.status == 404)
        #expect(try reply.json()["error"] is String)
    }

    @Test func expiredSaveIs404() async throws {
        let clock = TestClock()
        let backend = try startBackend(clock: clock) { $0.ttl = 60 }
        let url = try await Client.saveURL(backend.baseURL, title: "Soon gone", content: "<p>x</p>")
        #expect(try await Client.get(url).status == 200)     // also fills the page cache
        clock.advance(59)
        #expect(try await Client.get(url).status == 200)
        clock.advance(1)
        #expect(try await Client.get(url).status == 404)
    }

    @Test(arguments: [
        ("GET", "/save", "POST, OPTIONS"),
        ("PUT", "/save", "POST, OPTIONS"),
        ("DELETE", "/save", "POST, OPTIONS"),
        ("POST", "/6f1c1d2e-9a4b-4c3d-8e2f-1a2b3c4d5e6f", "GET, HEAD"),
        ("DELETE", "/6f1c1d2e-9a4b-4c3d-8e2f-1a2b3c4d5e6f", "GET, HEAD"),
        ("POST", "/healthz", "GET, HEAD"),
    ])
    func wrongMethodIs405WithAllow(method: String, path: String, allow: String) async throws {
        let backend = try startBackend()
        let reply = try await Client.send(method, backend.baseURL + path)
        #expect(reply.status == 405)
        #expect(reply.header("Allow") == allow)
        #expect(try reply.json()["error"] is String)
    }

    @Test func optionsIsACORSPreflightForSave() async throws {
        let backend = try startBackend()
        let reply = try await Client.send("OPTIONS", backend.baseURL + "/save",
                                          headers: ["Origin": "https://example.org", "Access-Control-Request-Method": "POST"])
        #expect(reply.status == 204)
        #expect(reply.header("Access-Control-Allow-Origin") == "*")
        #expect(reply.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        #expect(reply.header("Access-Control-Allow-Headers")?.lowercased().contains("content-type") == true)
    }

    @Test func healthReportsTheStore() async throws {
        let healthy = try startBackend()
        let ok = try await Client.get(healthy.baseURL + "/healthz")
        #expect(ok.status == 200)
        #expect(try ok.json()["store"] as? String == "memory")
        let broken = try startBackend(store: FailingStore())
        let down = try await Client.get(broken.baseURL + "/healthz")
        #expect(down.status == 503)
        #expect(try down.json()["error"] as? String == "Store unavailable")
    }
}
