import Foundation
import PiperCore
import PiperTestSupport
import Testing

/// A JS page behind a cookie, shared as an X link: the test's HTTPS server poses as x.com
/// through Chromium's host-resolver rules (`PIPER_CHROMIUM_FLAGS`). Needs chromium: skipped
/// without it, unless `CI` is set, then failed.
let shareChromium = ["/usr/bin/chromium", "/usr/local/bin/chromium"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite(.ownThread, .timeLimit(.minutes(2)), .enabled(if: shareChromium != nil || shareIsCI, "chromium is not installed"))
struct ShareBrowserTests {
    /// A model of X's post page: nothing until its script has run, then the post in X's
    /// `data-testid` shape (not a copy of a live page).
    static let jsPage = """
        <html><head><title>A post on X</title></head><body><div id="root">Loading…</div>
        <script>
        setTimeout(function () {
          var html = '<article data-testid="tweet"><div data-testid="User-Name"><a href="/ada"><span>Ada</span></a>' +
            '<a href="/ada"><span>@ada</span></a><a href="/ada/status/1"><time datetime="2024-01-01T00:00:00.000Z">Jan 1</time></a></div>' +
            '<div data-testid="tweetText" lang="en"><span>A thread worth keeping, rendered by JavaScript after a timer</span></div></article>';
          document.getElementById('root').innerHTML = html;
        }, 400);
        </script></body></html>
        """

    /// Logs in with one cookie and shares the X link; returns the result, the backend (the caller
    /// stops it) and the temp folder (the caller removes it).
    func run(cookie: String) async throws -> (PiperBinary.Result, ShareBackend, URL) {
        _ = try #require(shareChromium, "chromium is not installed (apt-get install chromium)")
        let dir = try makeShareTempDir()
        let home = dir.appendingPathComponent("home")
        let tls = try TestHTTPServer.selfSignedCertificate(in: dir)
        var route = TestHTTPServer.Route.html(Self.jsPage)
        route.requireCookie = "auth_token=good"
        route.otherwise = ["status": "200", "body": "<html><body><div><h1>Sign in to X</h1><button data-testid=\"loginButton\">Next</button></div></body></html>"]
        let site = try TestHTTPServer(routes: ["/i/status/1": route], tls: tls)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"))

        let expires = Int(Date().timeIntervalSince1970) + 3_600
        let cookies = dir.appendingPathComponent("cookies.txt")
        // X needs ct0 beside auth_token; login refuses one without the other.
        let csrf = cookie.hasPrefix("auth_token") ? ".x.com\tTRUE\t/\tTRUE\t\(expires)\tct0\tcsrf\n" : ""
        try "#HttpOnly_.x.com\tTRUE\t/\tTRUE\t\(expires)\t\(cookie)\n\(csrf)".write(to: cookies, atomically: true, encoding: .utf8)
        let login = try PiperBinary.run(["login", "--cookies", cookies.path], home: home)
        try #require(login.status == 0, "login failed: \(login.stderr)")

        let flags = "--ignore-certificate-errors --host-resolver-rules=MAP x.com 127.0.0.1:\(site.port),MAP twitter.com 127.0.0.1:\(site.port),MAP * ~NOTFOUND,EXCLUDE 127.0.0.1"
        let result = try PiperBinary.run(["share", "--no-clipboard", "--backend", backend.baseURL, "https://x.com/i/status/1"],
                                         home: home, environment: ["PIPER_CHROMIUM_FLAGS": flags])
        return (result, backend, dir)
    }

    @Test func withTheCookieTheBrowserPathExtractsTheRenderedArticle() async throws {
        let (result, backend, dir) = try await run(cookie: "auth_token\tgood")
        defer { backend.stop(); try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("in Chromium"))
        let (status, html) = try await httpGet(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(status == 200)
        #expect(html.contains("rendered by JavaScript after a timer"))
        #expect(html.contains("Ada (@ada) on X"), "saved as the post, with its author")
    }

    /// X's login wall is said as what it is: the X connection is needed again, nothing saved.
    @Test func withoutItTheLoginWallAsksToConnectX() async throws {
        let (result, backend, dir) = try await run(cookie: "guest_id\tv1")
        defer { backend.stop(); try? FileManager.default.removeItem(at: dir) }
        #expect(result.status != 0)
        #expect(result.stderr.contains("Open Piper to connect your X account"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
