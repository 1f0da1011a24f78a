import CCurl
import Foundation
import PiperSystem
import PiperTestSupport
import Testing

/// What a `CurlRequest` asks for is what a real local server receives, and its connection
/// guard belongs to that one transfer.
@Suite(.ownThread, .serialized) struct CurlRequestTests {
    /// Runs `request`, returning the failure (nil on success), the status and the body.
    func run(_ request: CurlRequest) throws -> (failure: CurlError?, status: Int, body: String) {
        let easy = try CurlEasy(request)
        let collected = Collected()
        easy.receiver = collected
        let failure = easy.perform()
        return (failure, easy.responseCode, String(decoding: collected.body, as: UTF8.self))
    }

    @Test func aPostSendsItsBodyHeadersAndUserAgent() throws {
        let server = try TestHTTPServer(routes: ["/save": .json(#"{"ok":true}"#)])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/save"))
        request.method = .post(Data(#"{"title":"Caf\#u{e9}"}"#.utf8))
        request.headers = ["Content-Type: application/json", "Expect:"]
        request.userAgent = "piper-test/1"
        let answer = try run(request)
        #expect(answer.failure == nil && answer.status == 200, "\(String(describing: answer.failure))")
        let logged = try #require(try server.requests("/save").first)
        #expect(logged.method == "POST")
        #expect(logged.body == #"{"title":"Caf\#u{e9}"}"#)
        #expect(logged.header("Content-Type") == "application/json")
        #expect(logged.header("User-Agent") == "piper-test/1")
        #expect(logged.header("Expect") == nil)
    }

    @Test func headAndRangesAskForWhatTheySay() throws {
        let server = try TestHTTPServer(routes: ["/file": .html("0123456789")])
        defer { server.stop() }
        var head = CurlRequest(url: server.url("/file"))
        head.method = .head
        #expect(try run(head).body.isEmpty)
        var tail = CurlRequest(url: server.url("/file"))
        tail.range = .init(from: 5)
        _ = try run(tail)
        var first = CurlRequest(url: server.url("/file"))
        first.range = .init(from: 0, through: 0)
        _ = try run(first)
        let logged = try server.requests("/file")
        #expect(logged.map(\.method) == ["HEAD", "GET", "GET"])
        #expect(logged.map { $0.header("Range") } == [nil, "bytes=5-", "bytes=0-0"])
    }

    @Test func redirectsAreFollowedOnlyWhenAskedAndUpToTheLimit() throws {
        let server = try TestHTTPServer(routes: [
            "/one": .init(status: 302, headers: ["Location": "/two"]),
            "/two": .init(status: 302, headers: ["Location": "/end"]),
            "/end": .html("arrived"),
        ])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/one"))
        let unfollowed = try run(request)
        #expect(unfollowed.failure == nil && unfollowed.status == 302)
        request.redirects = .follow(max: 1)
        #expect(try run(request).failure?.code == CURLE_TOO_MANY_REDIRECTS)
        request.redirects = .standard
        let followed = try run(request)
        #expect(followed.status == 200 && followed.body == "arrived")
    }

    /// The cookie engine keeps what a redirect sets for the next hop even with no cookies of its
    /// own, and sends preloaded cookies to their domain only.
    @Test func cookiesGoToTheirDomainAndSurviveRedirects() throws {
        let server = try TestHTTPServer(routes: [
            "/set": .init(status: 302, headers: ["Location": "/check", "Set-Cookie": "seen=1; Path=/"]),
            "/check": .init(body: "with cookie", requireCookie: "seen=1", otherwise: ["status": "403"]),
            "/mine": .html("page"),
        ])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/set"))
        request.redirects = .standard
        #expect(try run(request).status == 403, "no cookie engine: the redirect's cookie is dropped")
        request.cookies = []
        #expect(try run(request).status == 200)

        var mine = CurlRequest(url: server.url("/mine"))
        mine.cookies = ["127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc", "example.com\tFALSE\t/\tFALSE\t0\tother\txyz"]
        _ = try run(mine)
        #expect(try server.requests("/mine").first?.header("Cookie") == "sid=abc")
    }

    @Test func decodingIsAskedForOnlyWhenWanted() throws {
        let server = try TestHTTPServer(routes: ["/zipped": .init(body: "plain words", gzip: true)])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/zipped"))
        request.decodesContent = true
        #expect(try run(request).body == "plain words")
        request.decodesContent = false
        #expect(try run(request).body != "plain words", "the body as the server encoded it")
        #expect(try server.requests("/zipped").map { $0.header("Accept-Encoding") != nil } == [true, false])
    }

    @Test func theBufferSizeBoundsEachChunk() throws {
        final class Chunks: CurlReceiver {   // not Sendable: the test's thread only
            var largest = 0, total = 0
            func curlReceive(body: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool {
                largest = max(largest, body.count)
                total += body.count
                return true
            }
        }
        let server = try TestHTTPServer(routes: ["/big": .html(String(repeating: "x", count: 200_000))])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/big"))
        request.bufferSize = 1024
        let easy = try CurlEasy(request)
        let chunks = Chunks()
        easy.receiver = chunks
        #expect(easy.perform() == nil)
        #expect(chunks.total == 200_000)
        #expect(chunks.largest <= 1024)
    }

    /// The guard refuses before any byte reaches the server, on every hop; a handle made without
    /// one in the same process, after it, connects as usual.
    @Test func aGuardBelongsToItsTransferOnly() throws {
        let elsewhere = try closedPort()
        let server = try TestHTTPServer(routes: [
            "/page": .html("reached"),
            "/hop": .init(status: 302, headers: ["Location": "http://127.0.0.2:\(elsewhere)/page"]),
        ])
        defer { server.stop() }
        let refuseLoopback = CurlConnectionGuard { $0 == "127.0.0.1" ? "Refused to fetch from \($0): test" : nil }
        var guarded = CurlRequest(url: server.url("/page"))
        guarded.connectionGuard = refuseLoopback
        let refused = try run(guarded)
        #expect(refused.failure?.code == CURLE_REMOTE_ACCESS_DENIED)
        #expect(refused.failure?.description == "Refused to fetch from 127.0.0.1: test")
        #expect(try server.requests().isEmpty)

        let open = try run(CurlRequest(url: server.url("/page")))
        #expect(open.failure == nil && open.body == "reached")

        var hop = CurlRequest(url: server.url("/hop"))
        hop.redirects = .standard
        hop.connectionGuard = CurlConnectionGuard { $0 == "127.0.0.1" ? nil : "Refused to fetch from \($0): not the first host" }
        let redirected = try run(hop)
        #expect(redirected.failure?.description == "Refused to fetch from 127.0.0.2: not the first host")
        #expect(try server.requests("/hop").count == 1)
    }
}
