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
    static let jsPage = """
        <html><head><title>A post on X</title></head><body><div id="root">Loading…</div>
        <script>
        setTimeout(function () {
          var html = '<article><h1>A thread worth keeping</h1>';
          for (var i = 0; i < 8; i++) html += '<p>Rendered by JavaScript after a timer, paragraph ' + i + ', with enough words to count as an article.</p>';
          document.getElementById('root').innerHTML = html + '</article>';
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
        route.otherwise = ["status": "200", "body": "<html><body><div>Log in to X to see this post.</div></body></html>"]
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
        #expect(html.contains("Rendered by JavaScript after a timer"))
    }

    @Test func withoutItTheLoginWallIsAnExtractionFailure() async throws {
        let (result, backend, dir) = try await run(cookie: "guest_id\tv1")
        defer { backend.stop(); try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 65)
        #expect(result.stderr.contains("Extraction failed"))
        #expect(result.stdout.isEmpty)
    }
}
