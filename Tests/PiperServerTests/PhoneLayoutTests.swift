import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// Every page a phone meets, at the width of a small phone (360 CSS px), with many shares and
/// long links in them: nothing is wider than the screen (no zoomed-out page), and every tap
/// target (buttons, the links that stand alone, file pickers) is at least 44 × 44 px. A link
/// inside running text is exempt, as WCAG's target-size rule exempts it.
@Suite(.ownThread, .timeLimit(.minutes(4)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct PhoneLayoutTests {
    static let measure = """
        (function () {
          var out = { width: document.documentElement.scrollWidth, viewport: window.innerWidth, small: [] };
          document.querySelectorAll('a[href], button, input[type=submit], input[type=file], summary, select').forEach(function (el) {
            if (el.tagName === 'A' && !el.classList.contains('button') && el.closest('p')) return;
            var r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) return;
            if (r.height < 44 || r.width < 44) {
              out.small.push((el.id || el.tagName.toLowerCase()) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)
                + ' "' + String(el.innerText || el.value || '').slice(0, 24) + '"');
            }
          });
          return JSON.stringify(out);
        })()
        """

    @Test func everyPageFitsASmallPhoneAndItsTapTargetsAreLargeEnough() async throws {
        let long = String(repeating: "a-very-long-path-segment-without-spaces-", count: 8)
        let feed = """
            <rss version="2.0"><channel><title>Harbour Radio</title>
            <item><title>Tide</title><guid>tide-1</guid><enclosure url="/sample.mp3" type="audio/mpeg"/></item></channel></rss>
            """
        let site = try TestHTTPServer(routes: ["/feed.xml": .init(headers: ["Content-Type": "application/rss+xml"], body: feed)],
                                      staticRoot: PiperTestSupport.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL)
        defer { site.stop() }
        let server = try ShareServer(["--allow-host", "localhost"])
        let site0 = "http://localhost:\(site.port)"
        var ids: [String] = []
        for index in 0..<8 {
            let reply = try await server.shareJSON(["url": "\(site0)/\(long)\(index).html"], headers: try server.bearer)
            ids.append(try #require(try reply.json()["id"] as? String))
        }
        let feedShare = try await server.shareJSON(["url": "\(site0)/feed.xml"], headers: try server.bearer)
        let feedID = try #require(try feedShare.json()["id"] as? String)
        _ = try await server.shareJSON(["url": "\(site0)/sample.m4a?\(long)"], headers: try server.bearer)
        var follow = try server.bearer
        follow["Content-Type"] = "application/json"
        _ = try await Client.send("POST", server.url + "/follows", body: try JSONSerialization.data(withJSONObject: ["url": "\(site0)/feed.xml"]),
                                  headers: follow)
        let library = server.state.library
        #expect(eventually(within: 60) {
            ((try? FileManager.default.subpathsOfDirectory(atPath: library.path)) ?? []).filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".m4a") }.count >= 2
        }, "the shared files reached the library")

        let port = try #require(server.url.split(separator: ":").last.map(String.init))
        let base = "http://piper.lan:\(port)"
        let browser = try PhoneBrowserTests.phone(resolving: "piper.lan")
        defer { browser.close() }
        try browser.call("Emulation.setDeviceMetricsOverride", ["width": 360, "height": 780, "deviceScaleFactor": 3, "mobile": true])
        _ = try PhoneBrowserTests.pair(browser, at: base, server: server)
        let pages = ["/", "/shares/\(ids[0])", "/shares/\(feedID)", "/shares/\(ids.joined(separator: ","))", "/library", "/follows",
                     "/connect-x", "/shortcut", "/pair?code=\(try server.registry.createPairing())", "/no-such-page"]
        var problems: [String] = []
        for page in pages {
            try browser.navigate(try #require(URL(string: base + page)))
            let text = try #require(try browser.evaluate(Self.measure) as? String)
            let found = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let width = found["width"] as? Int ?? 0, viewport = found["viewport"] as? Int ?? 0
            if width > viewport { problems.append("\(page): \(width) px wide on a \(viewport) px screen") }
            for small in found["small"] as? [String] ?? [] { problems.append("\(page): \(small)") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The shared feed's page offers to follow the show.
        try browser.navigate(try #require(URL(string: base + "/shares/\(feedID)")))
        #expect(try PhoneBrowserTests.text(browser, "follow") == "Follow this show")
    }
}
