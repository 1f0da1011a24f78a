import Foundation
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PiperServer

/// The browser's only road out (`GuardedProxy`): a canary server on loopback must see nothing a
/// hostile page tries (a redirect to it, an image, a stylesheet over IPv6, a frame by a name that
/// resolves to loopback, a fetch to a private address), whether Chromium asks or a raw client
/// sends CONNECT itself; a host opened with --allow-host works, by its name. The name that
/// resolves to loopback is the tests' own (`resolve`), so nothing depends on the machine's hosts file.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct GuardedProxyTests {
    /// The proxy's resolver in these tests: `loopback.test` is 127.0.0.1, other names as the system says.
    static let resolve: @Sendable (String) -> [NetworkAddress] = { host in
        host == "loopback.test" ? [NetworkAddress("127.0.0.1")!] : FetchGuard.resolve(host)
    }

    /// Sends one request head to the proxy and returns its first line (an established tunnel
    /// stays open: the read ends at its time limit).
    static func ask(_ proxy: GuardedProxy, _ head: String, timeout: TimeInterval = 10) throws -> String {
        let connection = try RawConnection(port: proxy.port)
        connection.send(head)
        return connection.readToEnd(timeout: timeout).components(separatedBy: "\r\n").first ?? ""
    }

    @Test func theProxyRefusesWhatThePolicyRefusesAndConnectsToWhatItChecked() throws {
        let canary = try TestHTTPServer(routes: ["/x": .html("canary")])
        let proxy = try GuardedProxy(policy: FetchPolicy(allowing: ["localhost"]), resolve: Self.resolve)
        defer { proxy.stop() }
        #expect(try Self.ask(proxy, "CONNECT 127.0.0.1:\(canary.port) HTTP/1.1\r\nHost: 127.0.0.1:\(canary.port)\r\n\r\n") == "HTTP/1.1 403 Forbidden")
        #expect(try Self.ask(proxy, "CONNECT [::1]:\(canary.port) HTTP/1.1\r\n\r\n") == "HTTP/1.1 403 Forbidden")
        #expect(try Self.ask(proxy, "CONNECT loopback.test:\(canary.port) HTTP/1.1\r\n\r\n") == "HTTP/1.1 403 Forbidden", "a name that resolves to loopback")
        #expect(try Self.ask(proxy, "GET http://127.0.0.1:\(canary.port)/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == "HTTP/1.1 403 Forbidden")
        #expect(try Self.ask(proxy, "GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\n\r\n") == "HTTP/1.1 403 Forbidden")
        #expect(try canary.requests().isEmpty, "nothing reached the canary")
        #expect(proxy.refusals.count == 5 && proxy.refusals.allSatisfy { $0.contains("Refused to fetch from") }, "\(proxy.refusals)")
        // The name --allow-host opens works, through CONNECT and forwarding.
        #expect(try Self.ask(proxy, "CONNECT localhost:\(canary.port) HTTP/1.1\r\n\r\n", timeout: 2) == "HTTP/1.1 200 Connection Established")
        let forwarded = try Self.ask(proxy, "GET http://localhost:\(canary.port)/x HTTP/1.1\r\nHost: localhost\r\nProxy-Connection: keep-alive\r\n\r\n")
        #expect(forwarded.hasSuffix(" 200 OK"), "\(forwarded)")
        #expect(try canary.requests("/x").first?.header("Proxy-Connection") == nil, "proxy headers are not forwarded")
    }

    /// Two requests on one kept-alive connection, the second to a refused address: the proxy
    /// never forwards a request whose destination it has not checked. The first server keeps
    /// connections open whatever the request says; the answer comes back `Connection: close`,
    /// and the second request reaches neither server.
    @Test func aSecondRequestOnAKeptAliveConnectionIsNeverForwardedUnchecked() throws {
        var first = TestHTTPServer.Route.html("first answer")
        first.keepAlive = true
        let upstream = try TestHTTPServer(routes: ["/first": first])
        let canary = try TestHTTPServer(routes: ["/second": .html("canary")])
        let proxy = try GuardedProxy(policy: FetchPolicy(allowing: ["localhost"]), resolve: Self.resolve)
        defer { proxy.stop() }
        let connection = try RawConnection(port: proxy.port)
        connection.send("GET http://localhost:\(upstream.port)/first HTTP/1.1\r\nHost: localhost:\(upstream.port)\r\nProxy-Connection: keep-alive\r\n\r\n")
        let answer = Self.oneAnswer(connection)
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("first answer"), "\(answer)")
        #expect(answer.contains("\r\nConnection: close\r\n"), "the browser is told not to reuse the connection: \(answer)")
        connection.send("GET http://127.0.0.1:\(canary.port)/second HTTP/1.1\r\nHost: 127.0.0.1:\(canary.port)\r\n\r\n")
        let second = connection.readToEnd(timeout: 10)
        #expect(second.isEmpty || second.hasPrefix("HTTP/1.1 403"), "refused or closed, never answered: \(second)")
        #expect(try upstream.requests().map(\.path) == ["/first"], "the second request did not pass to the first server")
        #expect(try canary.requests().isEmpty)
    }

    /// One answer on a connection that stays open: its head, then `Content-Length` bytes.
    static func oneAnswer(_ connection: RawConnection) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var wait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let length = text[..<end.lowerBound].components(separatedBy: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[end.upperBound...].utf8.count >= length { return text }
            }
            let got = recv(connection.fd, &buffer, buffer.count, 0)
            if got <= 0 { return text }
            received += buffer[0..<got]
        }
    }

    @Test(.enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func aHostilePageInTheGuardedBrowserReachesNothingLocal() throws {
        let canary = try TestHTTPServer(routes: ["/img": .html("x"), "/css": .html("x"), "/frame": .html("x"), "/redirected": .html("x")])
        let c = canary.port
        let site = try TestHTTPServer(routes: [
            "/page": .html("""
                <!doctype html><title>Hostile</title>
                <img src="http://127.0.0.1:\(c)/img"><link rel="stylesheet" href="http://[::1]:\(c)/css">
                <iframe src="http://loopback.test:\(c)/frame"></iframe><img src="/redirect">
                <script>fetch('http://10.1.2.3:\(c)/private').catch(function () {}); document.title = 'ran';</script>
                """),
            "/redirect": TestHTTPServer.Route(status: 302, headers: ["Location": "http://127.0.0.1:\(c)/redirected"], body: ""),
        ])
        let proxy = try GuardedProxy(policy: FetchPolicy(allowing: ["localhost"]), resolve: Self.resolve)
        defer { proxy.stop() }
        var loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        loader.extraFlags += BrowserGuard.flags(proxyPort: proxy.port)
        let browser = try BrowserScript(loader: loader)
        defer { browser.close() }
        try browser.navigate(try #require(URL(string: "http://localhost:\(site.port)/page")))
        #expect(try browser.evaluate("document.title") as? String == "ran", "the allowed page itself loads through the proxy")
        let refused = eventually(within: 15) { proxy.refusals.count >= 5 }
        #expect(refused, "\(proxy.refusals)")
        for target in ["127.0.0.1", "::1", "loopback.test", "10.1.2.3"] {
            #expect(proxy.refusals.contains { $0.contains(target) }, "\(target) was refused: \(proxy.refusals)")
        }
        let seen = try canary.requests().map(\.path)
        #expect(seen.isEmpty, "the canary saw nothing: \(seen)")
        // Asked directly (not from a page), the browser's road is the same.
        try? browser.navigate(try #require(URL(string: "http://127.0.0.1:\(c)/img")))
        #expect(try canary.requests().isEmpty)
    }
}
