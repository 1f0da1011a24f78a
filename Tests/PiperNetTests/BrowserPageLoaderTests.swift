import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// Headless Chromium against a real local HTTPS server posing as x.com (host-resolver rules).
/// Without chromium: skipped, unless `CI` is set, then failed.
@Suite(.ownThread, .timeLimit(.minutes(2)), .enabled(if: BrowserFixture.chromium != nil || BrowserFixture.isCI, "chromium is not installed"))
struct BrowserPageLoaderTests {
    @Test func rendersAJavaScriptArticleWithTheCookie() throws {
        let fixture = try BrowserFixture()
        defer { fixture.stop() }
        let cookie = Cookie(domain: ".x.com", secure: true, httpOnly: true,
                            expires: Date().addingTimeInterval(3600), name: "auth_token", value: "good")
        let page = try fixture.loader().load(URL(string: "https://x.com/i/status/1")!, cookies: [cookie])
        #expect(page.loader == .browser)
        #expect(page.finalURL.host == "x.com")
        let article = try ReadabilityExtractor().extract(page)
        #expect(article.content.contains("rendered by a timer"))
        #expect(fixture.leftovers().isEmpty)
    }

    @Test func withoutTheCookieTheLoginWallIsNotAnArticle() throws {
        let fixture = try BrowserFixture()
        defer { fixture.stop() }
        let page = try fixture.loader().load(URL(string: "https://x.com/i/status/1")!, cookies: [])
        #expect(String(decoding: page.body, as: UTF8.self).contains("Log in to X"))
        #expect(throws: ExtractionError.self) { try ReadabilityExtractor().extract(page) }
        #expect(fixture.leftovers().isEmpty)
    }

    @Test func aNavigationErrorLeavesNoBrowserBehind() throws {
        let fixture = try BrowserFixture(mapTo: 1)  // nothing listens on port 1
        defer { fixture.stop() }
        let error = try #require(throws: LoadError.self) {
            try fixture.loader().load(URL(string: "https://x.com/i/status/1")!, cookies: [])
        }
        #expect(error.description.contains("ERR_CONNECTION_REFUSED"))
        #expect(fixture.leftovers().isEmpty)
    }

    @Test func aNavigationErrorOnXFallsBackToTwitter() throws {
        let fixture = try BrowserFixture(xPort: 1)  // x.com refuses; twitter.com answers
        defer { fixture.stop() }
        let cookie = Cookie(domain: ".twitter.com", secure: true, name: "auth_token", value: "good")
        let page = try fixture.loader().load(URL(string: "https://x.com/i/status/1")!, cookies: [cookie])
        #expect(page.finalURL.host == "twitter.com")
        #expect(fixture.leftovers().isEmpty)
    }

    @Test func aStalledPageTimesOutAndLeavesNoBrowserBehind() throws {
        let fixture = try BrowserFixture(stall: 20)
        defer { fixture.stop() }
        var loader = fixture.loader()
        loader.timeout = 4
        let error = try #require(throws: LoadError.self) {
            try loader.load(URL(string: "https://x.com/i/status/1")!, cookies: [])
        }
        #expect(error == .timedOut(URL(string: "https://x.com/i/status/1")!, seconds: 4))
        #expect(fixture.leftovers().isEmpty)
    }
}

/// A TLS server with the JS page, a loader pointed at it, and a marker to find the browser's processes.
struct BrowserFixture {
    static let chromium = BrowserPageLoader.find()
    static let isCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    static let articleText = "This paragraph was rendered by a timer in JavaScript, long after the load event started. "
    static let jsPage = """
        <html><head><title>A post on X</title></head><body><div id="root">Loading…</div>
        <script>
        setTimeout(function () {
          var html = '<article><h1>A thread worth keeping</h1>';
          for (var i = 0; i < 8; i++) html += '<p>' + \(String(reflecting: articleText)) + i + '</p>';
          document.getElementById('root').innerHTML = html + '</article>';
        }, 400);
        </script></body></html>
        """
    static let loginWall = "<html><head><title>X</title></head><body><div>Log in to X to see this post.</div></body></html>"

    let dir: URL
    let server: TestHTTPServer
    let marker = "PIPER_TEST_RUN=\(UUID().uuidString)"
    let port: Int
    let xPort: Int

    init(mapTo port: Int? = nil, xPort: Int? = nil, stall: Double = 0) throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (apt-get install chromium)")
        _ = chromium
        dir = try makeTempDir()
        let tls = try TestHTTPServer.selfSignedCertificate(in: dir)
        var route = TestHTTPServer.Route.html(Self.jsPage)
        route.requireCookie = "auth_token=good"
        route.otherwise = ["status": "200", "body": Self.loginWall]
        route.delay = stall
        server = try TestHTTPServer(routes: ["/i/status/1": route], tls: tls)
        self.port = port ?? server.port
        self.xPort = xPort ?? self.port
    }

    func loader() -> BrowserPageLoader {
        var loader = BrowserPageLoader(executable: Self.chromium ?? "/usr/bin/chromium")
        loader.profileParent = dir
        var env = ProcessInfo.processInfo.environment
        let pair = marker.split(separator: "=", maxSplits: 1)
        env[String(pair[0])] = String(pair[1])
        loader.environment = env
        loader.extraFlags = [
            "--host-resolver-rules=MAP x.com 127.0.0.1:\(xPort),MAP twitter.com 127.0.0.1:\(port),MAP * ~NOTFOUND,EXCLUDE 127.0.0.1",
            "--ignore-certificate-errors",
        ]
        loader.timeout = 30
        return loader
    }

    func leftovers() -> [pid_t] { ProcessScan.livePIDs(withEnvironment: marker) }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: dir)
    }
}
