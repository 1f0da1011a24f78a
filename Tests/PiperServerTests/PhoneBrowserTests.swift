import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// A phone reaching `piper serve` the way phones do: headless Chromium emulating a Pixel, at a
/// name the server was never configured with (mapped to loopback by `--host-resolver-rules`),
/// over plain http on the LAN, and over HTTPS through Caddy (`--trusted-proxy`), trusting
/// Caddy's internal CA through an NSS database of its own.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct PhoneBrowserTests {
    static let pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"

    /// A Pixel-sized Chromium that resolves `name` to loopback; `home` holds its NSS database.
    static func phone(resolving name: String, home: URL? = nil) throws -> BrowserScript {
        var loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        loader.extraFlags += ["--host-resolver-rules=MAP \(name) 127.0.0.1"]
        if let home { loader.environment["HOME"] = home.path }
        let browser = try BrowserScript(loader: loader)
        try browser.call("Emulation.setUserAgentOverride", ["userAgent": pixel, "platform": "Linux armv8l"])
        try browser.call("Emulation.setDeviceMetricsOverride", ["width": 412, "height": 915, "deviceScaleFactor": 2.625, "mobile": true])
        return browser
    }

    static func text(_ browser: BrowserScript, _ id: String) throws -> String? {
        try browser.evaluate("(function () { var e = document.getElementById('\(id)'); return e ? e.innerText : null; })()") as? String
    }

    /// Pairs through the link's button, as a person would; returns the page's heading.
    static func pair(_ browser: BrowserScript, at base: String, server: ShareServer) throws -> String? {
        try browser.navigate(try #require(URL(string: "\(base)/pair?code=\(try server.registry.createPairing())")))
        try browser.submit("document.getElementById('pair').click(); 1")
        return try text(browser, "outcome") ?? browser.evaluate("document.body.innerText") as? String
    }

    @Test func aLANNameOverHTTPPairsAndSaysTheShareSheetNeedsHTTPS() throws {
        let server = try ShareServer()
        let port = try #require(server.url.split(separator: ":").last.map(String.init))
        let base = "http://piper.lan:\(port)"
        let browser = try Self.phone(resolving: "piper.lan")
        defer { browser.close() }
        let outcome = try Self.pair(browser, at: base, server: server)
        #expect(outcome == "Paired as Chrome on Android", "\(outcome ?? "nil")")
        #expect(try server.registry.devices().count == 1)
        #expect(try Self.text(browser, "https-notice")?.hasPrefix("Piper can't appear in the share sheet over http") == true)
        #expect(try Self.text(browser, "install-note") == nil, "no install advice where install cannot work")

        try browser.navigate(try #require(URL(string: base + "/")))
        #expect(try browser.evaluate("document.title") as? String == "Share — Piper")
        #expect(try Self.text(browser, "phone-ways")?.contains("Share button") == true, "a phone is offered the share sheet")
        #expect(try browser.evaluate("document.getElementById('bookmarklet')") is NSNull, "no bookmarks bar on a phone")
        #expect(try Self.text(browser, "https-notice") != nil)
        let errors = (try browser.call("Page.getInstallabilityErrors")["installabilityErrors"] as? [[String: Any]] ?? [])
            .compactMap { $0["errorId"] as? String }
        #expect(errors.contains("not-from-secure-origin"), "\(errors)")
    }

    @Test func throughCaddyOverHTTPSThePhoneCanInstallTheApp() throws {
        let server = try ShareServer(["--trusted-proxy", "127.0.0.1"])
        let upstream = try #require(server.url.split(separator: "/").last.map(String.init))
        let caddy = try CaddyProxy(name: "piper.test", upstream: upstream)
        defer { caddy.stop() }
        let browser = try Self.phone(resolving: "piper.test", home: try caddy.chromiumHomeTrustingRoot())
        defer { browser.close() }
        let outcome = try Self.pair(browser, at: caddy.url, server: server)
        #expect(outcome == "Paired as Chrome on Android", "\(outcome ?? "nil")")
        #expect(try Self.text(browser, "install-note") != nil && Self.text(browser, "https-notice") == nil)

        try browser.navigate(try #require(URL(string: caddy.url + "/")))
        #expect(try browser.evaluate("window.isSecureContext") as? Bool == true)
        let worker = try browser.evaluate("navigator.serviceWorker.ready.then(r => r.active ? r.active.state : 'none')") as? String
        #expect(worker == "activated" || worker == "activating", "\(worker ?? "nil")")
        var errors: [String] = ["not asked"]
        _ = eventually(within: 20) {
            errors = ((try? browser.call("Page.getInstallabilityErrors")["installabilityErrors"] as? [[String: Any]]) ?? [])?
                .compactMap { $0["errorId"] as? String } ?? ["no answer"]
            return errors.isEmpty
        }
        #expect(errors.isEmpty, "\(errors)")
        // A share from the phone through Caddy: answered, and recorded under the paired device.
        let shared = try browser.evaluate("""
            fetch('/share', {method: 'POST', headers: {'Accept': 'application/json', 'Content-Type': 'application/x-www-form-urlencoded'},
                             body: 'text=nothing%20to%20share'}).then(r => r.status + ' ' + r.headers.get('content-type'))
            """) as? String
        #expect(shared?.hasPrefix("400 application/json") == true, "a same-origin POST through the proxy reached the route: \(shared ?? "nil")")
        let logged = eventually(within: 10) { server.serve.stderr.contains("Chrome_on_Android POST /share 400") }
        #expect(logged, "the access log names the paired phone: \(server.serve.stderr.split(separator: "\n").filter { $0.contains("/share") })")
    }
}
