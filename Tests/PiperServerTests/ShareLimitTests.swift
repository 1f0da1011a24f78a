import Foundation
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// Per-device rate limits and the live job line, on an in-process backend with sharing on
/// (PiperNet's real loader and extractor; no media pipeline, no connection guard installed).
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct ShareLimitTests {
    static func sharingBackend(home: URL, perMinute: Double, burst: Double) throws -> Backend {
        let state = StateFolder(url: home)
        var services = ShareServices(cookies: FileCookieStore(state: state), httpLoader: HTTPPageLoader(), browserLoader: nil,
                                     extractor: ReadabilityExtractor(), media: nil, jobs: nil,
                                     fetchGuard: FetchGuard(policy: FetchPolicy()), state: state)
        services.sharesPerMinute = perMinute
        services.shareBurst = burst
        return try startBackend { $0.share = services }
    }

    @Test func eachDeviceHasItsOwnBudget() async throws {
        let home = try freshDirectory("limits")
        // One share per 100 minutes once the burst is spent, so a slow machine cannot refill it mid-test.
        let backend = try Self.sharingBackend(home: home, perMinute: 0.01, burst: 2)
        let registry = try DeviceRegistry(state: StateFolder(url: home))
        let (_, phone) = try registry.createToken(name: "phone")
        let (_, laptop) = try registry.createToken(name: "laptop")
        func share(_ token: String) async throws -> Reply {
            try await Client.send("POST", backend.baseURL + "/share", body: Data("text=no link".utf8),
                                  headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
        }
        #expect(try await share(phone).status == 400)
        #expect(try await share(phone).status == 400)
        let limited = try await share(phone)
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") != nil)
        #expect((try limited.json()["error"] as? String)?.hasPrefix("Too many shares from phone") == true)
        #expect(try await share(laptop).status == 400, "another device is not held back")
    }

    /// `piper serve --share-rate-limit 0` lifts the per-device limit: more shares than the burst pass.
    @Test func theShareRateLimitIsAnOption() async throws {
        let server = try ShareServer(["--share-rate-limit", "0"])
        for _ in 0..<(Int(ShareServices.defaultSharesPerMinute) + 2) {
            let reply = try await server.shareJSON(["text": "no link"], headers: try server.bearer)
            #expect(reply.status == 400, "\(reply.text)")
        }
        let usage = try PiperBinaryRun.piper(["serve", "--share-rate-limit", "-1"], home: server.home)
        #expect(usage.status == 64, "\(usage.stderr)")
    }

    @Test func theLiveStateLineSaysWhereAJobIs() {
        #expect(MediaJobState(state: .downloading, bytes: 42, total: 100).summary == "downloading 42 %")
        #expect(MediaJobState(state: .downloading, bytes: 42).summary == "downloading")
        #expect(MediaJobState(state: .imported, libraryPath: "Podcasts/ep42.mp3").summary == "imported as Podcasts/ep42.mp3")
        #expect(MediaJobState(state: .failed, reason: "HTTP 404").summary
                == "failed: The site has nothing at this link (HTTP 404); check the link (the page may have moved or been removed)")
        #expect(MediaJobState(state: .failed, reason: "HTTP 404", url: "https://cdn.example/ep.mp3").summary
                == "failed: cdn.example has nothing at this link (HTTP 404); check the link (the page may have moved or been removed)")
        #expect(MediaJobState(state: .queued).summary == "queued")
    }
}
