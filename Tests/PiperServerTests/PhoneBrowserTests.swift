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
    /// `timeout`: each step's bound (the browser's whole life is bounded by three of them).
    static func phone(resolving name: String, home: URL? = nil, timeout: TimeInterval = 30) throws -> BrowserScript {
        var loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        loader.timeout = timeout
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

    /// The share sheet's navigation as Android makes it for the installed app (a multipart POST
    /// to the manifest's `share_target` action with its `title`, `text` and `file` fields),
    /// through Caddy over HTTPS: two links in the text and two files, and every item lands once.
    @Test func throughCaddyAShareOfSeveralLinksAndTwoFilesLandsEveryItemOnce() async throws {
        let media = ShareRouteTests.media
        let site = try ShareSite.start()
        try site.route("/ep44.mp3", .init(body: [UInt8](try Data(contentsOf: media.appendingPathComponent("sample.mp3")))))
        let server = try ShareServer(["--trusted-proxy", "127.0.0.1", "--allow-host", "127.0.0.1"])
        let upstream = try #require(server.url.split(separator: "/").last.map(String.init))
        let caddy = try CaddyProxy(name: "piper.test", upstream: upstream)
        defer { caddy.stop() }
        let browser = try Self.phone(resolving: "piper.test", home: try caddy.chromiumHomeTrustingRoot())
        defer { browser.close() }
        #expect(try Self.pair(browser, at: caddy.url, server: server) == "Paired as Chrome on Android")
        let home = try #require(URL(string: caddy.url + "/"))
        try browser.navigate(home)
        // The installed app's service worker takes the share sheet's POST, as on a phone.
        _ = try browser.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        if try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool != true { try browser.navigate(home) }
        #expect(try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool == true, "the worker controls the page")

        let article = site.url("/article").absoluteString, episode = site.url("/ep44.mp3").absoluteString
        let first = try Data(contentsOf: media.appendingPathComponent("sample.flac")).base64EncodedString()
        let second = try Data(contentsOf: media.appendingPathComponent("sample.ogg")).base64EncodedString()
        try browser.submit("""
            (function () {
              var manifest = { action: '/share', method: 'post', enctype: 'multipart/form-data' };
              var form = document.createElement('form');
              form.method = manifest.method; form.action = manifest.action; form.enctype = manifest.enctype;
              [['title', 'Two for you'], ['text', 'Two for you: \(article) and also \(episode)']].forEach(function (pair) {
                var input = document.createElement('input'); input.type = 'hidden'; input.name = pair[0]; input.value = pair[1];
                form.appendChild(input);
              });
              var file = document.createElement('input'); file.type = 'file'; file.name = 'file'; file.multiple = true;
              function bytes(b64) { return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); }); }
              var files = new DataTransfer();
              files.items.add(new File([bytes('\(first)')], 'chapter one.flac', { type: 'audio/flac' }));
              files.items.add(new File([bytes('\(second)')], 'chapter two.ogg', { type: 'audio/ogg' }));
              file.files = files.files; form.appendChild(file);
              document.body.appendChild(form); form.submit(); return 1;
            })()
            """)
        // Answered with a redirect to the result page, which lists every item.
        let heading = try Self.text(browser, "outcome")
        let page = try browser.evaluate("document.body.innerText") as? String ?? ""
        #expect(heading == "Shared 4 items", "\(heading ?? "nil"): \(page)")
        #expect(try browser.evaluate("location.pathname.indexOf('/shares/') === 0") as? Bool == true, "a reload shows the result, never shares again")
        let items = try browser.evaluate("Array.from(document.querySelectorAll('#items li')).map(function (li) { return li.className; }).join(',')") as? String
        #expect(items == "saved,queued,queued,queued", "\(items ?? "nil")")

        // Every item lands once: the article saved, the mp3 downloaded once, both files imported under their names.
        let landed = try await eventually(within: 60) {
            let shares = (try? await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]]) ?? []
            return shares.count == 4 && shares.allSatisfy { ["saved", "imported", "duplicate"].contains($0["status"] as? String ?? "") }
        }
        let shares = try await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]] ?? []
        #expect(landed, "\(shares)")
        #expect(shares.filter { $0["status"] as? String == "imported" }.count == 3, "\(shares)")
        #expect(try site.requests("/ep44.mp3").filter { $0.method == "GET" }.count == 1, "the mp3 was fetched once")
        let library = (try? FileManager.default.subpathsOfDirectory(atPath: server.state.library.path)) ?? []
        #expect(library.contains { $0.hasSuffix("chapter one.flac") } && library.contains { $0.hasSuffix("chapter two.ogg") }, "\(library)")
        #expect(library.filter { $0.hasSuffix(".mp3") }.count == 1, "\(library)")

        // Reloading the result page shows it again and shares nothing.
        try browser.navigate(try #require(URL(string: caddy.url + (try browser.evaluate("location.pathname") as? String ?? "/"))))
        #expect(try Self.text(browser, "outcome") == "Shared 4 items")
        let again = try await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]] ?? []
        #expect(again.count == 4, "\(again.count) shares after a reload")
    }
}
