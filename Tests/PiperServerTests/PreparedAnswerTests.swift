import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// A cached page answered before its request is parsed (`PreparedAnswers`) reads exactly as the
/// route's own answer, and the requests the shortcut must not take still get the general path's.
@Suite(.ownThread) struct PreparedAnswerTests {
    /// The headers of a reply but `Date`, which moves with the clock.
    /// The headers that do not move with the clock: not `Date`, and not `Cache-Control`, whose
    /// max-age counts down to the link's expiry (compared by `maxAge`).
    private func stable(_ reply: Reply) -> [String: String] {
        reply.headers.filter { $0.key != "date" && $0.key != "cache-control" }
    }

    private func maxAge(_ reply: Reply) -> Int? {
        guard let value = reply.headers["cache-control"], value.hasPrefix("public, max-age=") else { return nil }
        return Int(value.dropFirst("public, max-age=".count))
    }

    @Test func onlyLiveCachedPagesArePrepared() throws {
        let clock = TestClock()
        let store = MemoryStore()
        let publicURL = LateValue()
        publicURL.set("http://piper.test")
        let route = ReaderRoute(store: store, cache: PageCache(), publicURL: publicURL, clock: { clock.read() })
        let pages = CachedReaderPages(route)
        let id = UUIDPath.randomID()
        try store.insert(SavedArticle(id: id, title: "Cached", content: "<p>Text.</p>", createdAt: clock.read(),
                                      expiresAt: clock.read().addingTimeInterval(60)))
        func prepared(_ path: String) -> ReusableResponse? {
            var path = path
            return path.withUTF8 { pages.preparedResponse(path: $0) }
        }
        #expect(prepared("/" + id) == nil)                  // not rendered yet: the route renders it
        let routed = try route.page(HTTPRequest(method: "GET", path: "/" + id))
        let hit = try #require(prepared("/" + id))
        #expect(hit.response.status == 200)
        #expect(hit.response.body == routed.body)
        #expect(hit.response.headers.map(\.name) == routed.headers.map(\.name))
        #expect(hit.response.headers.map(\.value) == routed.headers.map(\.value))
        #expect(hit.response.header("X-Content-Type-Options") == "nosniff")
        #expect(prepared("/" + id.uppercased()) === hit)     // the same object within the second
        #expect(prepared("/" + UUIDPath.randomID()) == nil)
        #expect(prepared("/" + id + "/") == nil)
        clock.advance(1)
        let later = try #require(prepared("/" + id))
        #expect(later !== hit)
        #expect(later.response.header("Cache-Control") == "public, max-age=59")
        clock.advance(59)
        #expect(prepared("/" + id) == nil)                  // expired: never served from the cache
    }

    @Test func aCachedPageReadsAsTheRoutesOwnAnswer() async throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let url = try await Client.saveURL(backend.baseURL, title: "Cached", content: "<p>Served twice.</p>")
        let first = try await Client.get(url)               // a miss: rendered through the router
        let second = try await Client.get(url)              // a hit, found from the path
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(second.body == first.body)
        #expect(stable(second) == stable(first))
        let firstAge = try #require(maxAge(first)), secondAge = try #require(maxAge(second))
        #expect(secondAge <= firstAge && secondAge > 0)     // the same expiry, counted later
        #expect(second.header("Content-Security-Policy") != nil)

        let slash = try #require(url.lastIndex(of: "/"))
        let base = String(url[..<slash])
        let id = String(url[url.index(after: slash)...])
        let upper = try await Client.get(base + "/" + id.uppercased())
        #expect(upper.status == 200)
        #expect(upper.body == first.body)
        let query = try await Client.get(url + "?utm_source=x")  // a query: the general path
        #expect(query.status == 200)
        #expect(query.body == first.body)
        let head = try await Client.send("HEAD", url)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(first.body.count))
        let post = try await Client.send("POST", url)
        #expect(post.status == 405)
    }

    @Test func aHeadOverTheLimitIsRefusedEvenForACachedPage() async throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let url = try await Client.saveURL(backend.baseURL, title: "Cached", content: "<p>Text.</p>")
        #expect(try await Client.get(url).status == 200)
        let port = try #require(UInt16(backend.baseURL.split(separator: ":").last ?? ""))
        let idStart = try #require(url.lastIndex(of: "/"))
        let path = String(url[idStart...])
        func exchange(_ head: String, body: String = "") throws -> String {
            let connection = try RawConnection(port: port)
            connection.send(head + "Host: x\r\nConnection: close\r\n\r\n" + body)
            return connection.readToEnd(timeout: 10)
        }
        let headers = (0..<40).map { "X-Filler-\($0): \(String(repeating: "c", count: 1000))\r\n" }.joined()
        let large = try exchange("GET \(path) HTTP/1.1\r\n" + headers)
        #expect(large.hasPrefix("HTTP/1.1 431"), "got \(large.prefix(200))")
        let small = try exchange("GET \(path) HTTP/1.1\r\n")
        #expect(small.hasPrefix("HTTP/1.1 200"), "got \(small.prefix(200))")
        // A body on a GET is read and answered as before, not left in the connection.
        let withBody = try exchange("GET \(path) HTTP/1.1\r\nContent-Length: 5\r\n", body: "hello")
        #expect(withBody.hasPrefix("HTTP/1.1 200"), "got \(withBody.prefix(200))")
    }

    @Test func theAccessLogRecordsCachedPagesAndTheForwardedClient() async throws {
        for trusted in [false, true] {
            let lines = LogLines()
            let backend = try startBackend {
                if trusted { $0.trustedProxies = ["127.0.0.1"] }
                $0.http.log = RequestLog(write: { lines.add($0) })
            }
            let url = try await Client.saveURL(backend.baseURL, title: "Cached", content: "<p>Text.</p>")
            #expect(try await Client.get(url).status == 200)
            let forwarded = try await Client.send("GET", url, headers: ["X-Forwarded-For": "203.0.113.7"])
            #expect(forwarded.status == 200)
            #expect(try await Client.get(url).status == 200)
            backend.stop()
            let idStart = try #require(url.lastIndex(of: "/"))
        let path = String(url[idStart...])
            let gets = lines.all.filter { $0.contains(" GET \(path) 200 ") }
            #expect(gets.count == 3, "\(lines.all)")
            // Only a trusted proxy names the client; from anyone else the header is ignored.
            #expect(gets.filter { $0.contains(" 203.0.113.7 - GET ") }.count == (trusted ? 1 : 0), "\(gets)")
            #expect(gets.filter { $0.contains(" 127.0.0.1 - GET ") }.count == (trusted ? 2 : 3), "\(gets)")
        }
    }
}

/// `@unchecked Sendable`: `lines` is only touched while holding `lock`.
private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
