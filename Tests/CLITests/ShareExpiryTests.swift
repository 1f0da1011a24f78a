import Foundation
import PiperCore
import PiperTestSupport
import Testing

/// What `piper share` says about the link it made: until when it works, whether Instapaper can
/// reach it, and what a rate limit does. The built binary against a real `piper serve`.
@Suite(.ownThread, .timeLimit(.minutes(2))) struct ShareExpiryTests {
    static let page = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardizedFileURL

    func share(_ backend: ShareBackend, _ site: TestHTTPServer, home: URL, json: Bool = false) throws -> PiperBinary.Result {
        try PiperBinary.run(["share", "--no-clipboard", "--browser", "never"] + (json ? ["--json"] : [])
                            + ["--backend", backend.baseURL, site.url("/001/source.html").absoluteString],
                            home: home, environment: ["TZ": "UTC"])
    }

    @Test func theMessageSaysUntilWhenAndWarnsAboutALoopbackLink() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: Self.page)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"), extraArguments: ["--ttl", "600"])
        defer { backend.stop() }
        let before = Date()
        let result = try share(backend, site, home: dir.appendingPathComponent("home"))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let saved = try #require(lines.first { $0.hasPrefix(Messages.saved) }, "stderr: \(result.stderr)")
        // "Saved — paste into Instapaper (link valid until HH:MM)", in UTC here (TZ=UTC); when the
        // link outlives the day it was made on, the date comes first ("yyyy-MM-dd HH:MM").
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func expected(_ now: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = calendar.timeZone
            let expiry = now.addingTimeInterval(600)
            formatter.dateFormat = calendar.isDate(expiry, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
            return formatter.string(from: expiry)
        }
        let candidates = [before, Date()].map(expected)
        #expect(candidates.contains { saved == Messages.saved + " (link valid until \($0))" }, "got '\(saved)'")
        #expect(lines.contains { $0.hasPrefix("Warning: 127.0.0.1 is a loopback address; Instapaper cannot fetch this link") })
        #expect(result.stdout.hasPrefix(backend.baseURL + "/"))
    }

    @Test func aPublicURLRaisesNoWarning() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: Self.page)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"),
                                       extraArguments: ["--public-url", "https://read.example.org"])
        defer { backend.stop() }
        let result = try share(backend, site, home: dir.appendingPathComponent("home"), json: true)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Warning:"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["url"] as? String)?.hasPrefix("https://read.example.org/") == true)
        #expect(object["expires"] is String)
    }

    @Test func aShortRetryAfterIsWaitedOutOnce() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: Self.page)
        defer { site.stop() }
        // One save at once, then one a second: the second share is told to retry after 1 s.
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"), extraArguments: ["--burst", "1", "--rate-limit", "60"])
        defer { backend.stop() }
        let home = dir.appendingPathComponent("home")
        #expect(try share(backend, site, home: home).status == 0)
        let second = try share(backend, site, home: home)
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stderr.contains(Messages.saved))
    }

    @Test func aRateLimitedShareExitsUnavailable() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: Self.page)
        defer { site.stop() }
        // One save, then one a minute: Retry-After is 60 s, too long to wait for.
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"), extraArguments: ["--burst", "1", "--rate-limit", "1"])
        defer { backend.stop() }
        let home = dir.appendingPathComponent("home")
        #expect(try share(backend, site, home: home).status == 0)
        let limited = try share(backend, site, home: home)
        #expect(limited.status == 69)
        #expect(limited.stderr.contains("Failed to save: Too many saves; try again in"))
    }

    @Test func serveHelpDocumentsBothLimitsWithDefaults() throws {
        let help = try PiperBinary.run(["serve", "--help"]).stdout
        #expect(help.contains("--rate-limit"))
        #expect(help.contains("(default 30)"))
        #expect(help.contains("--burst"))
        #expect(help.contains("(default 60)"))
    }
}
