import Foundation
import PiperTestSupport
import Testing

/// The README's two-server Caddyfile (`contrib/Caddyfile.two-servers`) with real Caddy in front
/// of two `piper serve` processes: one is killed, and no request through Caddy gets a 502 (a
/// refused connection is tried on the other server; the health checks keep the dead one out).
/// Caddy's defaults, in front of the same pair, let 502s through: the settings are what keeps them out.
@Suite(.ownThread, .timeLimit(.minutes(3)), .enabled(if: CaddyProxy.executable != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                                                     "caddy is not installed"))
struct CaddyClusterTests {
    static let file = packageRoot.appendingPathComponent("contrib/Caddyfile.two-servers")
    static let requests = 40

    /// The site block's directives of the contrib file, pointed at `upstreams` (its own two
    /// addresses replaced): the `reverse_proxy` block exactly as shipped.
    static func site(upstreams: [String]) throws -> String {
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "piper.example.org {\n"))
        let end = try #require(text.range(of: "\n}", options: .backwards))
        return String(text[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "127.0.0.1:8080 127.0.0.1:8081", with: upstreams.joined(separator: " "))
    }

    /// The statuses of `count` GETs of the health check through Caddy, in order.
    static func statuses(_ caddy: CaddyProxy, count: Int) -> [String] {
        (0..<count).map { _ in caddy.status(of: "/healthz") ?? "curl failed" }
    }

    @Test func oneServerKilledBehindTheReadmesCaddyfileGivesNo502() throws {
        let servers = try (0..<2).map { index in try ServeProcess(arguments: [], home: try freshDirectory("cluster-\(index)")) }
        let upstreams = servers.map { $0.url.replacingOccurrences(of: "http://", with: "") }
        #expect(try Self.site(upstreams: upstreams).contains("lb_try_duration"), "the shipped block is the one tested")
        let caddy = try CaddyProxy(name: "piper.test", site: try Self.site(upstreams: upstreams))
        #expect(Self.statuses(caddy, count: 4) == Array(repeating: "200", count: 4))
        servers[0].stop(signal: SIGKILL)
        let after = Self.statuses(caddy, count: Self.requests)
        print("contrib/Caddyfile.two-servers: \(after.filter { $0 == "502" }.count) of \(after.count) requests answered 502 after one server was killed")
        #expect(after.allSatisfy { $0 == "200" }, "every request reaches the live server: \(after)")
        #expect(README.text.contains(try String(contentsOf: Self.file, encoding: .utf8).components(separatedBy: "piper.example.org {")[1]),
                "the README shows the tested Caddyfile")
    }

    /// The same pair behind `reverse_proxy A B` with Caddy's defaults: a dead upstream's share
    /// of the requests fails with 502 (what the settings above prevent).
    @Test func caddysDefaultsLetA502Through() throws {
        let servers = try (0..<2).map { index in try ServeProcess(arguments: [], home: try freshDirectory("defaults-\(index)")) }
        let upstreams = servers.map { $0.url.replacingOccurrences(of: "http://", with: "") }
        let caddy = try CaddyProxy(name: "piper.test", site: "reverse_proxy \(upstreams.joined(separator: " "))")
        servers[0].stop(signal: SIGKILL)
        let after = Self.statuses(caddy, count: Self.requests)
        print("caddy defaults: \(after.filter { $0 == "502" }.count) of \(after.count) requests answered 502 after one server was killed")
        #expect(after.contains("502"), "with the defaults some requests meet the dead server: \(after)")
    }
}

/// The README's text, for checks that it shows what the tests run.
enum README {
    static var text: String { (try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? "" }
}
