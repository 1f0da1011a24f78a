import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// `GET /media/<id>` against a real `piper serve`: range semantics, validators, the sniffed
/// Content-Type, credentials and the feed's capability key, bytes equal to the file's.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct MediaRouteTests {
    @Test func rangesAndValidators() async throws {
        let library = try LibraryServer(fixtures: [("sample.m4b", nil)])
        let bytes = try library.file("sample.m4b")
        let size = bytes.count
        let url = "\(library.url)/media/\(try library.id("sample.m4b"))"
        let auth = try await library.server.ownerHeaders()

        let full = try await Client.send("GET", url, headers: auth)
        #expect(full.status == 200)
        #expect(full.body == bytes, "the whole file, byte for byte")
        #expect(full.header("Content-Type") == "audio/mp4", "from the sniffed format, not the .m4b name")
        #expect(full.header("Accept-Ranges") == "bytes")
        #expect(full.header("Content-Length") == "\(size)")
        let etag = try #require(full.header("ETag"))
        let modified = try #require(full.header("Last-Modified"))
        #expect(etag == "\"\(try library.item("sample.m4b").sha256.prefix(32))\"")
        #expect(modified.hasSuffix(" GMT"))

        func get(_ range: String, _ extra: [String: String] = [:]) async throws -> Reply {
            try await Client.send("GET", url, headers: auth.merging(["Range": range]) { $1 }.merging(extra) { $1 })
        }
        let first = try await get("bytes=0-0")
        #expect(first.status == 206)
        #expect(first.body == bytes.prefix(1))
        #expect(first.header("Content-Range") == "bytes 0-0/\(size)")
        #expect(first.header("Content-Length") == "1")

        let open = try await get("bytes=1000-")
        #expect(open.status == 206)
        #expect(open.body == bytes.subdata(in: 1000..<size))
        #expect(open.header("Content-Range") == "bytes 1000-\(size - 1)/\(size)")

        let middle = try await get("bytes=100-199")
        #expect(middle.body == bytes.subdata(in: 100..<200))

        let suffix = try await get("bytes=-500")
        #expect(suffix.status == 206)
        #expect(suffix.body == bytes.suffix(500))
        #expect(suffix.header("Content-Range") == "bytes \(size - 500)-\(size - 1)/\(size)")

        let bigSuffix = try await get("bytes=-\(size * 2)")
        #expect(bigSuffix.status == 206 && bigSuffix.body == bytes)

        let clamped = try await get("bytes=\(size - 10)-\(size * 3)")
        #expect(clamped.body == bytes.suffix(10))

        let past = try await get("bytes=\(size)-")
        #expect(past.status == 416)
        #expect(past.header("Content-Range") == "bytes */\(size)")

        let stale = try await get("bytes=0-0", ["If-Range": "\"0000000000\""])
        #expect(stale.status == 200, "a stale If-Range gets the whole file")
        #expect(stale.body == bytes)
        let fresh = try await get("bytes=0-9", ["If-Range": etag])
        #expect(fresh.status == 206 && fresh.body == bytes.prefix(10))
        let byDate = try await get("bytes=0-9", ["If-Range": modified])
        #expect(byDate.status == 206)

        let several = try await get("bytes=0-1,5-6")
        #expect(several.status == 200, "several ranges: the whole file (allowed by RFC 9110)")
        let malformed = try await get("bytes=9-2")
        #expect(malformed.status == 200)

        let notModified = try await Client.send("GET", url, headers: auth.merging(["If-None-Match": etag]) { $1 })
        #expect(notModified.status == 304 && notModified.body.isEmpty)

        let head = try await Client.send("HEAD", url, headers: auth)
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "\(size)")
    }

    @Test func credentialsOrTheFeedKey() async throws {
        let library = try LibraryServer(fixtures: [("sample.mp3", nil)])
        let url = "\(library.url)/media/\(try library.id("sample.mp3")).mp3"
        let anonymous = try await Client.send("GET", url, headers: ["Accept": "application/json"])
        #expect(anonymous.status == 401)
        let (cookie, _) = try await library.server.pair()
        let paired = try await Client.send("GET", url, headers: ["Cookie": cookie, "Range": "bytes=0-3"])
        #expect(paired.status == 206)
        #expect(paired.body.prefix(3) == Data("ID3".utf8) && paired.body.count == 4)
        #expect(paired.header("Content-Type") == "audio/mpeg")
        let secret = try library.feedSecret()
        let keyed = try await Client.send("GET", "\(url)?key=\(secret)")
        let mp3 = try library.file("sample.mp3")
        #expect(keyed.status == 200 && keyed.body == mp3)
        let wrong = try await Client.send("GET", "\(url)?key=0123")
        #expect(wrong.status == 403)
        try FeedSecret(state: library.server.state).revoke()
        let revoked = try await Client.send("GET", "\(url)?key=\(secret)")
        #expect(revoked.status == 403, "a revoked key stops working at once")
        let bearer = try await library.server.ownerHeaders()
        let unknown = try await Client.send("GET", "\(library.url)/media/0000000000000000", headers: bearer)
        #expect(unknown.status == 404)
        let post = try await Client.send("POST", url, headers: bearer)
        #expect(post.status == 405)
    }
}

extension MediaRouteTests {
    /// Every answer with bytes from outside is `nosniff` and sandboxed; a cover is served only
    /// as the image its bytes are, and a picture frame that is no image is no cover (404).
    @Test func coversAreImagesAndForeignBytesAreSandboxed() async throws {
        let page = Array("<html><script>alert(1)</script></html>".utf8)
        let library = try LibraryServer(fixtures: [("sample.m4b", nil)], made: [
            ("png.mp3", try CoveredMedia.mp3(title: "Png")),
            ("page.mp3", try CoveredMedia.mp3(title: "Page", mime: "text/html", picture: page)),
            ("lying.mp3", try CoveredMedia.mp3(title: "Lying", mime: "text/html", picture: CoveredMedia.png)),
        ])
        let bearer = try await library.server.ownerHeaders()
        func sandboxed(_ reply: Reply, _ what: String) {
            #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(what)")
            #expect(reply.header("Content-Security-Policy") == "default-src 'none'; sandbox", "\(what)")
        }
        let png = try await Client.send("GET", "\(library.url)/media/\(try library.id("png.mp3"))/cover", headers: bearer)
        #expect(png.status == 200 && png.header("Content-Type") == "image/png" && png.body == Data(CoveredMedia.png))
        sandboxed(png, "a cover")
        let lying = try await Client.send("GET", "\(library.url)/media/\(try library.id("lying.mp3"))/cover", headers: bearer)
        #expect(lying.status == 200 && lying.header("Content-Type") == "image/png", "the bytes decide, not the frame")
        let hostile = try await Client.send("GET", "\(library.url)/media/\(try library.id("page.mp3"))/cover", headers: bearer)
        #expect(hostile.status == 404, "a page is no cover: \(hostile.status) \(hostile.header("Content-Type") ?? "")")
        #expect(hostile.header("Content-Type")?.hasPrefix("text/html") != true || hostile.header("Content-Security-Policy") != nil)
        #expect(!hostile.text.contains("<script>alert(1)"))

        let media = "\(library.url)/media/\(try library.id("sample.m4b"))"
        sandboxed(try await Client.send("GET", media, headers: bearer), "a file")
        sandboxed(try await Client.send("GET", media, headers: bearer.merging(["Range": "bytes=0-9"]) { $1 }), "a range")
        let feed = try await Client.send("GET", "\(library.url)/feed/\(try library.feedSecret()).xml")
        #expect(feed.status == 200)
        sandboxed(feed, "the feed")
    }

    /// Moving the library folder and pointing serve at it keeps every item playable.
    @Test func aMovedLibraryStaysPlayable() async throws {
        let library = try LibraryServer(fixtures: [("sample.mp3", "Show"), ("sample.m4b", nil)])
        let owner = try await library.server.ownerHeaders()   // paired before the first server stops
        library.server.serve.stop(signal: SIGTERM)
        let moved = try freshDirectory("moved").appendingPathComponent("media library")
        try FileManager.default.moveItem(at: library.server.state.library, to: moved)
        let serve = try ServeProcess(arguments: ["--library", moved.path], home: library.server.home)
        for item in library.items {
            let reply = try await Client.send("GET", "\(serve.url)/media/\(LibraryShelf.id(of: item))", headers: owner)
            #expect(reply.status == 200, "\(item.path)")
            #expect(reply.body == (try Data(contentsOf: moved.appendingPathComponent(item.path))))
        }
    }
}

@Suite(.ownThread) struct ByteRangeTests {
    @Test func parsesTheRFCForms() {
        #expect(ByteRange.parse(nil, size: 10) == .whole)
        #expect(ByteRange.parse("bytes=0-0", size: 10) == .part(first: 0, last: 0))
        #expect(ByteRange.parse("bytes=3-", size: 10) == .part(first: 3, last: 9))
        #expect(ByteRange.parse("bytes=-3", size: 10) == .part(first: 7, last: 9))
        #expect(ByteRange.parse("bytes=-30", size: 10) == .part(first: 0, last: 9))
        #expect(ByteRange.parse("bytes=5-99999999999999999999999", size: 10) == .part(first: 5, last: 9))
        #expect(ByteRange.parse("bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange.parse("items=0-1", size: 10) == .whole)
        #expect(ByteRange.parse("bytes=a-b", size: 10) == .whole)
        #expect(ByteRange.parse("bytes=5-2", size: 10) == .whole)
        #expect(ByteRange.parse("bytes=0-1, 3-4", size: 10) == .whole)
        #expect(HTTPDate.string(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func feedSecretsStayOutOfTheAccessLog() {
        #expect(RequestLog.redacted("/feed/abc123.xml") == "/feed/SECRET.xml")
        #expect(RequestLog.redacted("/feed/abc123/Show One.xml") == "/feed/SECRET/Show One.xml")
        #expect(RequestLog.redacted("/feed/abc123/chapters/0011.json") == "/feed/SECRET/chapters/0011.json")
        #expect(RequestLog.redacted("/media/0011") == "/media/0011")
        let lines = LockedLines()
        RequestLog { lines.append($0) }.record(method: "GET", path: "/feed/abc123.xml", status: 200, milliseconds: 1)
        #expect(lines.all.count == 1 && !lines.all[0].contains("abc123"))
    }
}

/// Lines a test log collected.
///
/// `@unchecked Sendable`: `lines` is only touched while holding `lock`.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
