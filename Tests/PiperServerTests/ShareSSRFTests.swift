import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The SSRF guard on a real server against real addresses: refused by default, after DNS
/// resolution and on every redirect hop; opened only by `--allow-host`.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct ShareSSRFTests {
    @Test func localAndPrivateAddressesAreRefusedUnlessAllowed() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer()
        let port = site.port
        let cases: [(String, String)] = [
            ("http://127.0.0.1:\(port)/article", "loopback"), ("http://[::1]:\(port)/article", "loopback"),
            ("http://localhost:\(port)/article", "loopback"), ("http://10.0.0.1/article", "private"),
            ("http://169.254.169.254/latest/meta-data/", "cloud metadata"), ("http://2130706433:\(port)/article", "loopback"),
            ("http://0x7f000001:\(port)/article", "loopback"), ("http://100.64.0.1/", "shared (CGNAT)"),
            ("http://[fe80::1]/", "link-local"), ("http://192.168.1.1/a.mp3", "private"),
        ]
        for (link, kind) in cases {
            let reply = try await server.shareJSON(["url": link], headers: try server.bearer)
            #expect(reply.status == 403, "\(link): \(reply.text)")
            let error = (try? reply.json()["error"] as? String) ?? nil
            #expect(error?.contains("a \(kind) address") == true, "\(link): \(error ?? reply.text)")
        }
        #expect(try site.requests().isEmpty, "nothing reached the local site")
    }

    @Test func aRedirectFromAnAllowedHostToAPrivateOneIsRefused() async throws {
        let target = try ShareSite.start()
        let site = try ShareSite.start(extra: [
            "/hop": TestHTTPServer.Route(status: 302, headers: ["Location": "http://127.0.0.2:\(target.port)/article"]),
            "/ep.mp3": TestHTTPServer.Route(status: 302, headers: ["Location": "http://127.0.0.2:\(target.port)/a.mp3"]),
        ])
        let server = try ShareServer(["--allow-host", "127.0.0.1/32"])
        let reply = try await server.shareJSON(["url": site.url("/hop").absoluteString], headers: try server.bearer)
        #expect(reply.status == 502, "\(reply.text)")
        #expect((try reply.json()["error"] as? String)?.contains("Refused to fetch from 127.0.0.2: a loopback address") == true, "\(reply.text)")
        // The download agent inside the server is behind the same guard.
        let media = try await server.shareJSON(["url": site.url("/ep.mp3").absoluteString], headers: try server.bearer)
        #expect(media.status == 202, "\(media.text)")
        let job = try #require(try media.json()["job"] as? String)
        let state = try await ShareRouteTests.waitForJob(job, server: server)
        #expect(state.hasPrefix("failed: ") && state.contains("Refused to fetch from 127.0.0.2: a loopback address"), "\(state)")
        #expect(try target.requests().isEmpty, "the private host was never contacted")
    }

    @Test func anAllowedHostIsFetched() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "localhost"])
        let reply = try await server.shareJSON(["url": "http://localhost:\(site.port)/article"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
    }
}
