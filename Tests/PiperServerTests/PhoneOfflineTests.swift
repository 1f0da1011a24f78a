import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The installed app on a Pixel-sized Chromium when Piper is away: behind Caddy with Piper
/// stopped (Caddy answers 502) and with nothing listening at all, the app still opens, styled,
/// with its share box; a share is kept on the phone, named on a styled page, listed under
/// "Waiting on this phone", and delivered exactly once when Piper is back, the page left open.
@Suite(.ownThread, .timeLimit(.minutes(5)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct PhoneOfflineTests {
    /// The page's stylesheet was applied (the body's cream background from app.css).
    static let styled = "getComputedStyle(document.body).backgroundColor === 'rgb(247, 245, 240)'"

    static func text(_ browser: BrowserScript, _ id: String) -> String {
        ((try? PhoneBrowserTests.text(browser, id)) ?? nil) ?? ""
    }

    /// Opens `home` until the service worker controls it (its first load installs the worker).
    static func openControlled(_ browser: BrowserScript, _ home: URL) throws {
        try browser.navigate(home)
        _ = try browser.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        if try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool != true { try browser.navigate(home) }
        try #require(try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool == true, "the worker controls the page")
    }

    /// Shares `link` from the page's share box, as a person would.
    static func shareFromTheBox(_ link: String, in browser: BrowserScript) throws {
        try browser.submit("document.getElementById('url').value = '\(link)'; document.getElementById('share-form').requestSubmit(); 1")
    }

    /// The waiting list's items: `[what, line, buttons]` each.
    static func waiting(_ browser: BrowserScript) -> [[String]] {
        let script = """
            Array.from(document.querySelectorAll('#waiting li')).map(function (li) {
              return [li.querySelector('strong').innerText, li.querySelector('.state').innerText,
                      Array.from(li.querySelectorAll('button')).map(function (b) { return b.innerText; }).join(',')];
            })
            """
        return ((try? browser.evaluate(script)) as? [[String]]) ?? []
    }

    @Test func throughCaddyTheAppOpensAndSharesWhilePiperIsAwayAndDeliversOnceWhenItReturns() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--trusted-proxy", "127.0.0.1", "--allow-host", "127.0.0.1"])
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let upstream = try #require(server.url.split(separator: "/").last.map(String.init))
        let caddy = try CaddyProxy(name: "piper.test", upstream: upstream)
        defer { caddy.stop() }
        let browser = try PhoneBrowserTests.phone(resolving: "piper.test", home: try caddy.chromiumHomeTrustingRoot(), timeout: 120)
        defer { browser.close() }
        #expect(try PhoneBrowserTests.pair(browser, at: caddy.url, server: server) == "Paired as Chrome on Android")
        let home = try #require(URL(string: caddy.url + "/"))
        try Self.openControlled(browser, home)

        // Piper stopped behind Caddy: Caddy answers 502, and the app opens from the phone.
        server.stopServing()
        let gateway = try runProcessCapturing("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", try caddy.rootCertificate().path,
                                                               "--resolve", "piper.test:\(caddy.port):127.0.0.1", caddy.url + "/"])
        #expect(gateway.stdout == "502", "Caddy's answer with Piper stopped: \(gateway.stdout)")
        try browser.navigate(home)
        #expect(Self.text(browser, "offline-note").contains("its proxy answered 502"), "\(Self.text(browser, "offline-note"))")
        #expect(try browser.evaluate(Self.styled) as? Bool == true, "the shell is styled from the worker's cache")
        #expect(try browser.evaluate("document.getElementById('share-form') !== null") as? Bool == true, "the share box is there")
        let first = site.url("/article").absoluteString + "?first"
        try Self.shareFromTheBox(first, in: browser)
        #expect(Self.text(browser, "outcome") == "Kept on this phone")
        let page = try browser.evaluate("document.body.innerText") as? String ?? ""
        #expect(page.components(separatedBy: "Kept on this phone").count == 2, "said once: \(page)")
        #expect(Self.text(browser, "kept") == first, "the kept page names what it kept")
        #expect(Self.text(browser, "kept-note").contains("its proxy answered 502"), "\(Self.text(browser, "kept-note"))")
        #expect(try browser.evaluate(Self.styled) as? Bool == true, "the kept page is styled")

        // Nothing listening at all (Caddy stopped too): the app opens, and a share is kept.
        caddy.stop()
        try browser.navigate(home)
        #expect(Self.text(browser, "offline-note").hasPrefix("Piper can’t be reached from this phone right now."), "\(Self.text(browser, "offline-note"))")
        #expect(try browser.evaluate(Self.styled) as? Bool == true)
        let second = site.url("/article").absoluteString + "?second"
        try Self.shareFromTheBox(second, in: browser)
        #expect(Self.text(browser, "kept") == second)
        #expect(Self.text(browser, "kept-note") == "Piper is not reachable from this phone; it is sent on its own when it is.")

        // The app, opened: both wait on this phone, each with what it is, when, why, and its buttons.
        try browser.navigate(home)
        var waiting: [[String]] = []
        let listed = eventually(within: 20) { waiting = Self.waiting(browser); return waiting.count == 2 }
        #expect(listed, "\(waiting)")
        #expect(Set(waiting.map { $0[0] }) == [first, second], "\(waiting)")
        for item in waiting {
            #expect(item[1].hasPrefix("Kept ") && item[1].contains("Last tried "), "\(item)")
            #expect(item[2] == "Send now,Remove", "\(item)")
        }
        #expect(waiting.contains { $0[1].contains("its proxy answered 502") } || waiting.contains { $0[1].contains("not reachable") }, "\(waiting)")
        #expect(try browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true, "fits a 412 px phone")
        let small = try browser.evaluate("""
            Array.from(document.querySelectorAll('#waiting button')).filter(function (b) {
              var box = b.getBoundingClientRect(); return box.height < 44 || box.width < 44;
            }).length
            """) as? Int
        #expect(small == 0, "Send now and Remove are at least 44 px")

        // Piper returns (Caddy, then Piper on its port); the page stays open, never reloaded.
        _ = try browser.evaluate("window.stayedOpen = true; 1")
        try caddy.start()
        try server.startServing(port: port)
        let back = Date()
        var delivered: [[String: Any]] = []
        var firstAt: TimeInterval?
        let arrived = try await eventually(within: 90) {
            delivered = try await ShareOfflineTests.records(server, source: first) + ShareOfflineTests.records(server, source: second)
            if firstAt == nil, !delivered.isEmpty { firstAt = Date().timeIntervalSince(back) }
            return delivered.count >= 2
        }
        let seconds = Date().timeIntervalSince(back)
        print("PhoneOfflineTests: kept shares delivered, the app left open: the first \(String(format: "%.1f", firstAt ?? -1)) s, "
              + "both \(String(format: "%.1f", seconds)) s after Piper returned")
        #expect(arrived, "\(delivered)")
        let emptied = eventually(within: 30) { Self.waiting(browser).isEmpty && ShareOutboxTests.entries(browser).isEmpty }
        #expect(emptied, "\(ShareOutboxTests.entries(browser))")
        #expect(try browser.evaluate("window.stayedOpen === true") as? Bool == true, "delivered without reopening the app")
        #expect(try browser.evaluate("document.getElementById('waiting-section').hidden") as? Bool == true)
        #expect(eventually(within: 20) { Self.text(browser, "offline-note").hasPrefix("Piper is back.") }, "\(Self.text(browser, "offline-note"))")
        // Exactly once each.
        #expect(try await ShareOfflineTests.records(server, source: first).count == 1)
        #expect(try await ShareOfflineTests.records(server, source: second).count == 1)
    }
}
