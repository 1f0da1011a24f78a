import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

@Suite(.ownThread) struct SupportUnitTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256MatchesKnownVectors(input: String, hex: String) {
        let digest = SHA256.hash(Array(input.utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
    }

    @Test func sha256OfAMillionAs() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: ["", "f", "fo", "foo", "foob", "fooba", "foobar"])
    func base64MatchesFoundation(input: String) {
        #expect(Base64.encode(Array(input.utf8)) == Data(input.utf8).base64EncodedString())
    }

    @Test func styleHashIsTheHashOfTheServedStyle() {
        let expected = "'sha256-" + Data(SHA256.hash(Array(ReaderStyle.css.utf8))).base64EncodedString() + "'"
        #expect(ReaderStyle.cspHashSource == expected)
        #expect(ReaderPage.contentSecurityPolicy.contains(expected))
    }

    @Test func randomIDsAreDistinctVersion4UUIDs() {
        let ids = (0..<1000).map { _ in UUIDPath.randomID() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(UUIDPath.id(fromPath: "/" + id) == id)
            #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
        }
    }

    /// The cache key read from a path's bytes: the same for any case of the same id, the id's
    /// 128 bits, and nil exactly where `id(fromPath:)` is nil.
    @Test func uuidKeysAreTheIDsBits() {
        let ids = (0..<500).map { _ in UUIDPath.randomID() }
        var keys = Set<UUIDPath.Key>()
        for id in ids {
            let key = UUIDPath.key(id: id)
            #expect(key != nil)
            var upper = "/" + id.uppercased()
            #expect(upper.withUTF8 { UUIDPath.key(bytes: $0) } == key)
            let hex = id.replacingOccurrences(of: "-", with: "")
            #expect(key.map { String(format: "%016llx%016llx", $0.high, $0.low) } == hex)
            if let key { keys.insert(key) }
        }
        #expect(keys.count == ids.count)
        for path in ["/6f1c1d2e-9a4b-5c3d-be2f-1a2b3c4d5e6f", "/6f1c1d2e-9a4b-4c3d-ce2f-1a2b3c4d5e6f",
                     "/6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6g", "6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6f/", "/", "",
                     "/6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6", "/6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6ff"] {
            var path = path
            #expect(path.withUTF8 { UUIDPath.key(bytes: $0) } == nil, "\(path)")
            #expect(UUIDPath.id(fromPath: path) == nil)
        }
    }

    @Test func uuidPathsAcceptOnlyVersion4() {
        #expect(UUIDPath.id(fromPath: "/6F1C1D2E-9A4B-4C3D-BE2F-1A2B3C4D5E6F") == "6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6f")
        #expect(UUIDPath.id(fromPath: "/" + UUID().uuidString) != nil)
        #expect(UUIDPath.id(fromPath: "/6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6g") == nil)
        #expect(UUIDPath.id(fromPath: "6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6f/") == nil)
        #expect(UUIDPath.id(fromPath: "/6f1c1d2e-9a4b-5c3d-be2f-1a2b3c4d5e6f") == nil)
        #expect(UUIDPath.id(fromPath: "/6f1c1d2e-9a4b-4c3d-ce2f-1a2b3c4d5e6f") == nil)
        #expect(UUIDPath.id(fromPath: "/6f1c1d2e-9a4b-4c3d-be2f-1a2b3c4d5e6ff") == nil)
    }

    @Test func tokenBucketAllowsABurstThenTheRate() {
        var bucket = TokenBucket(capacity: 3, ratePerSecond: 0.5, now: 0)
        #expect(bucket.take(at: 0) == .allowed)
        #expect(bucket.take(at: 0) == .allowed)
        #expect(bucket.take(at: 0) == .allowed)
        #expect(bucket.take(at: 0) == .denied(retryAfter: 2))
        #expect(bucket.take(at: 1) == .denied(retryAfter: 1))
        #expect(bucket.take(at: 2) == .allowed)
        #expect(!bucket.isFull(at: 2))
        #expect(bucket.isFull(at: 8))
    }

    @Test func rateLimiterKeepsClientsApart() {
        let limiter = RateLimiter(perMinute: 60, burst: 1)
        #expect(limiter.take(client: "a", now: 0) == .allowed)
        #expect(limiter.take(client: "b", now: 0) == .allowed)
        #expect(limiter.take(client: "a", now: 0.5) != .allowed)
        #expect(RateLimiter(perMinute: 0, burst: 1).take(client: "a", now: 0) == .allowed)
    }

    @Test func requestLogKeepsLinesOnOneLine() {
        #expect(RequestLog.printable("/a\nb\u{7F}") == "/a?b?")
        #expect(RequestLog.printable("/save") == "/save")
        for ms in [0, 0.004, 0.006, 1.5, 12.344, 999.991, 1234.5, 31.07] {
            #expect(RequestLog.duration(ms) == String(format: "%.2fms", ms))
        }
        #expect(RequestLog.duration(3.14159) == "3.14ms")
        #expect(RequestLog.duration(7) == "7.00ms")
        #expect(RequestLog.printable(String(repeating: "x", count: 300)).count == 201)
    }
}

@Suite(.ownThread) struct NestingScanTests {
    @Test(arguments: [
        ("<p>flat</p><p>flat</p>", 0),
        ("<div><div><span>x</span></div></div>", 3),
        ("<ul><li>a<li>b<li>c</ul>", 1),
        ("<div><br><img src=x><hr/></div>", 1),
        ("<div title='a>b'><div>", 2),
        ("<!-- <div><div> --><div>", 1),
        ("<script>if (a < b) { '<div><div>' }</script><div>", 1),
        ("<DIV><Div></dIv></DIV>", 2),
        ("<custom-el/><x-y>", 1),
    ])
    func boundsNestingCheaply(html: String, expected: Int) {
        #expect(NestingScan.maxDepth(html) == expected)
    }

    @Test func hugeNestingIsRefusedBeforeParsing() async throws {
        let backend = try startBackend()
        let content = String(repeating: "<div>", count: 200_000) + "deep"
        let reply = try await Client.save(backend.baseURL, title: "Deep", content: content)
        #expect(reply.status == 400)
        #expect((try reply.json()["error"] as? String)?.contains("levels deep") == true)
    }
}

@Suite(.ownThread) struct PageCacheTests {
    @Test func staysWithinItsBounds() {
        let cache = PageCache(limit: 10, byteLimit: 1600)
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        for i in 0..<50 {
            cache.insert(.init(bytes: [UInt8](repeating: 1, count: 100), expiresAt: later), key: .init(high: UInt64(i), low: 1))
            #expect(cache.count <= 10)
            #expect(cache.byteCount <= 1600)
        }
        cache.insert(.init(bytes: [UInt8](repeating: 1, count: 101), expiresAt: later), key: .init(high: 1, low: 2))
        #expect(cache.page(key: .init(high: 1, low: 2), now: Date()) == nil)     // over a sixteenth: not cached
        cache.insert(.init(bytes: [1], expiresAt: Date(timeIntervalSince1970: 10)), key: .init(high: 1, low: 3))
        #expect(cache.page(key: .init(high: 1, low: 3), now: Date(timeIntervalSince1970: 10)) == nil)
    }
}
