import Foundation
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
@testable import piper

/// The owner's X cookies in `piper serve`'s browser (its share services as `ServeSharing`
/// builds them: the browser pool behind the guarded proxy, run by `ShareDriver` with the
/// options the server's `ShareRunner` gives it). A fake x.com over TLS (the proxy's resolver,
/// handed in by the test, makes x.com this machine; `--allow-host x.com` lets the proxy reach
/// it) records every Cookie header it gets. Hostile pages that are not X, loaded in the
/// browser because their HTTP copy is no article, frame x.com, navigate their tab to it and
/// form-POST to it: no X cookie may arrive. An X link shared the same way is still logged in.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || shareIsCI, "chromium is not installed"))
struct ServeBrowserXCookieTests {
    /// What a share records: the article it would have stored.
    final class Saves: SaveClient, @unchecked Sendable {
        private let lock = NSLock()
        private var titles: [String] = []
        func save(_ article: ExtractedArticle) throws -> URL {
            lock.withLock { titles.append(article.title) }
            return URL(string: "http://reader.test/\(UUID().uuidString)")!
        }
        var saved: [String] { lock.withLock { titles } }
    }
    struct NoClipboard: Clipboard { func copy(_ text: String) throws -> String { "none" } }
    struct Quiet: ShareReporter { func progress(_ message: String) {} }

    @Test func aPageThatIsNotXNeverCarriesTheOwnersXCookiesAndAnXShareIsStillLoggedIn() throws {
        let folder = try TemporaryFolder("serve-x-cookies")
        let tls = try TestHTTPServer.selfSignedCertificate(in: folder.home)
        var post = TestHTTPServer.Route.html(ShareBrowserTests.jsPage)
        post.requireCookie = "auth_token=good"
        post.otherwise = ["status": "200", "body": "<html><body><h1>Sign in to X</h1><button data-testid=\"loginButton\">Next</button></body></html>"]
        let fakeX = try TestHTTPServer(routes: ["/i/status/1": post, "/framed": .html("<p>framed</p>"),
                                                "/navigated": .html("<p>navigated</p>"), "/posted": .html("<p>posted</p>")], tls: tls)
        let x = "https://x.com:\(fakeX.port)"
        // Short pages (their HTTP copy holds no article, so the share loads them in the browser).
        let hostile = try TestHTTPServer(routes: [
            "/frame-then-go": .html("""
                <!doctype html><title>Hostile</title><p>Look.</p>
                <iframe src="\(x)/framed" onload="location.href = '\(x)/navigated'"></iframe>
                """),
            "/post": .html("""
                <!doctype html><title>Hostile</title><p>Look.</p>
                <form method="post" action="\(x)/posted"><input name="text" value="posted by another site"></form>
                <script>document.forms[0].submit();</script>
                """),
        ])
        let state = StateFolder(url: folder.home.appendingPathComponent("state"))
        try FileManager.default.createDirectory(at: state.url, withIntermediateDirectories: true)
        let expires = Date().addingTimeInterval(3600)
        try FileCookieStore(state: state).save(CookieJar([
            Cookie(domain: ".x.com", httpOnly: true, expires: expires, name: "auth_token", value: "good"),
            Cookie(domain: ".x.com", expires: expires, name: "ct0", value: "csrf"),
        ]))

        var environment = ProcessInfo.processInfo.environment
        environment["PIPER_HOME"] = state.url.path
        environment["PIPER_CHROMIUM_FLAGS"] = "--ignore-certificate-errors"
        environment["PIPER_X_HOSTS"] = nil
        var sharing = ServeSharing(allowHosts: ["localhost", "x.com"], maxUploadBytes: 1 << 20, sharesPerMinute: 0, pair: false,
                                   environment: environment)
        sharing.resolve = { host in ["x.com", "localhost"].contains(host.lowercased()) ? [NetworkAddress("127.0.0.1")!] : [] }
        let services = sharing.services(state: state)
        defer { (services.browserLoader as? BrowserPool)?.stop(); services.browserProxy?.stop() }
        let saves = Saves()
        let driver = ShareDriver(ports: SharePorts(
            cookies: services.cookies, httpLoader: services.httpLoader, browserLoader: services.browserLoader,
            extractor: services.extractor, saver: saves, clipboard: NoClipboard(), media: nil, reporter: Quiet(),
            mediaFinder: services.mediaFinder))
        var options = ShareFlow.Options(browser: .auto, copyToClipboard: false, browserAvailable: services.browserLoader != nil)
        options.posts = services.posts
        #expect(services.browserLoader != nil, "the server has its browser")

        for page in ["/frame-then-go", "/post"] {
            _ = driver.run(.link(URL(string: "http://localhost:\(hostile.port)\(page)")!), options: options)
        }
        let arrived = eventually(within: 20) {
            let paths = Set(((try? fakeX.requests()) ?? []).map(\.path))
            return paths.isSuperset(of: ["/framed", "/navigated", "/posted"])
        }
        #expect(arrived, "the hostile pages reached the fake x.com: \((try? fakeX.requests())?.map(\.path) ?? [])")
        for request in try fakeX.requests() {
            let cookie = request.header("Cookie") ?? ""
            #expect(!cookie.contains("auth_token") && !cookie.contains("ct0"), "\(request.method) \(request.path) carried \(cookie)")
        }
        #expect(try fakeX.requests("/posted").first?.method == "POST")

        let shared = driver.run(.link(URL(string: "\(x)/i/status/1")!), options: options)
        #expect(shared.category == nil, "\(shared.message)")
        let asked = try fakeX.requests("/i/status/1")
        #expect(!asked.isEmpty && asked.allSatisfy { ($0.header("Cookie") ?? "").contains("auth_token=good") && ($0.header("Cookie") ?? "").contains("ct0=csrf") },
                "the X share was logged in: \(asked.map { $0.header("Cookie") ?? "" })")
        #expect(saves.saved.contains { $0.contains("Ada") }, "the post was saved: \(saves.saved)")
    }
}
