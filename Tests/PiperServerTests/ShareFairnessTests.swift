import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// One credential cannot hold every share worker: 8 requests of 20 stalling links from the
/// share token load at most `ShareWork.shares.perCredential` links at once, and another
/// device's one-link share is loaded beside them, not after them. Before, each request held
/// one of 8 threads for its 20 links in turn, and the other share waited for a thread.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareFairnessTests {
    @Test func anotherDevicesShareStartsBesideOneCredentialsLoad() async throws {
        // Every /slow link stalls for ten minutes (the loader gives up on each after 30 s).
        let site = try ShareSite.start(extra: ["/slow": TestHTTPServer.Route(body: ShareSite.articleHTML, delay: 600)])
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let target = server.url + "/share"
        let heavy = try server.bearer.merging(["Content-Type": "application/json"]) { $1 }
        var load: [Task<Void, Never>] = []
        for request in 0..<8 {
            let links = (0..<20).map { site.url("/slow?r=\(request)&l=\($0)").absoluteString }
            let body = try JSONSerialization.data(withJSONObject: ["text": links.joined(separator: " ")])
            load.append(Task { _ = try? await Client.send("POST", target, body: body, headers: heavy) })
        }
        defer { load.forEach { $0.cancel() } }

        // The token's links load, as many at once as its cap allows.
        let cap = ShareWork.shares.perCredential
        let loading = try eventually(within: 60) { try site.requests("/slow").count >= cap }
        try #require(loading, "the token's shares did not start")

        // Another device's one-link share is loaded and answered while the token's links stall.
        let (_, secret) = try server.registry.createToken(name: "other-phone")
        let other = try await server.shareJSON(["url": site.url("/article").absoluteString],
                                               headers: ["Authorization": "Bearer \(secret)", "Accept": "application/json"])
        #expect(other.status == 200, "\(other.text)")
        #expect(try other.json()["status"] as? String == "saved")
        let stalled = try site.requests("/slow").count
        #expect(stalled == cap, "the token holds \(cap) workers, no more: \(stalled) of its links were loading when the other share ended")
        #expect(try site.requests("/article").count >= 1)
    }
}
