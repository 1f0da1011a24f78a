import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The installable web app in real headless Chromium over CDP: pairing (the link's button) sets the cookie, the
/// manifest parses with its share target, the service worker registers, the share form and a
/// share-target style multipart post both reach the result page, and the CSP reports nothing.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct ShareWebAppTests {
    /// The result line, or what the page shows instead (so a failure says what happened).
    static let outcome = "(document.getElementById('outcome') || document.body || document.documentElement).innerText"

    @Test func theAppInstallsSharesAndKeepsToItsCSP() throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        let browser = try BrowserScript(loader: loader)
        defer { browser.close() }
        let base = try #require(URL(string: server.url))

        // The pairing link shows a button; only its POST pairs (and sends Sec-Fetch-Site: same-origin).
        try browser.navigate(try #require(URL(string: "\(server.url)/pair?code=\(try server.registry.createPairing())")))
        #expect(try browser.evaluate(Self.outcome) as? String == "Pair this browser with Piper?")
        #expect(try server.registry.devices().isEmpty, "opening the link pairs nothing")
        try browser.submit("document.getElementById('pair').click(); 1")
        #expect(try browser.evaluate(Self.outcome) as? String == "Paired as Chrome on Linux")
        #expect(try browser.evaluate("document.cookie") as? String == "", "the device cookie is HttpOnly")

        try browser.navigate(base)
        #expect(try browser.evaluate("document.title") as? String == "Share — Piper")
        let manifest = try browser.call("Page.getAppManifest")
        #expect((manifest["url"] as? String) == "\(server.url)/manifest.webmanifest")
        #expect((manifest["errors"] as? [Any])?.isEmpty == true, "\(manifest["errors"] ?? "")")
        let data = try #require((manifest["data"] as? String)?.data(using: .utf8))
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let target = try #require(parsed["share_target"] as? [String: Any])
        #expect(target["action"] as? String == "/share")
        #expect(target["method"] as? String == "POST")
        #expect(target["enctype"] as? String == "multipart/form-data")
        #expect(parsed["display"] as? String == "standalone")

        let worker = try browser.evaluate("navigator.serviceWorker.ready.then(r => r.active ? r.active.scriptURL : 'none')") as? String
        #expect(worker == "\(server.url)/sw.js")
        // Chromium's own verdict: nothing stops it from offering to install the app.
        let installability = try browser.call("Page.getInstallabilityErrors")["installabilityErrors"] as? [Any]
        #expect(installability?.isEmpty == true, "\(installability ?? [])")
        #expect(try browser.evaluate("fetch('/icon-512.png').then(r => r.blob()).then(b => createImageBitmap(b)).then(i => i.width + 'x' + i.height)")
                as? String == "512x512")

        // The paste box.
        let article = site.url("/article").absoluteString
        try browser.submit("document.getElementById('url').value = '\(article)'; document.getElementById('share-form').requestSubmit(); 1")
        let seen = try browser.evaluate(Self.outcome) as? String
        let at = try browser.evaluate("location.href") as? String
        #expect(seen == "Saved — paste into Instapaper", "\(seen ?? "nil") at \(at ?? "")")
        let reader = try browser.evaluate("document.getElementById('reader-url').value") as? String
        #expect(reader?.hasPrefix(server.url + "/") == true)
        #expect(try browser.evaluate("document.querySelector('button[data-copy]').hidden") as? Bool == false, "the script ran")

        // What Android's share sheet sends to the share target: multipart, the link in `text`.
        try browser.submit(ShareSheetPost.script([("title", "Shared"), ("text", "Read this \(article) now")]))
        #expect(try browser.evaluate(Self.outcome) as? String == "Saved — paste into Instapaper")

        try browser.navigate(base)
        #expect(try browser.evaluate("document.querySelectorAll('#recent li').length") as? Int == 2)
        let violations = browser.logMessages.filter { $0.contains("Content Security Policy") || $0.contains("Refused to") }
        #expect(violations.isEmpty, "\(violations)")
        // The check sees violations: an inline script injected now is refused and reported.
        _ = try browser.evaluate("""
            new Promise(function (done) {
              document.addEventListener('securitypolicyviolation', function (e) { done(e.violatedDirective); });
              var s = document.createElement('script'); s.textContent = 'window.ran = 1'; document.body.appendChild(s);
            })
            """)
        #expect(try browser.evaluate("window.ran === undefined") as? Bool == true)
        #expect(browser.logMessages.contains { $0.contains("Content Security Policy") }, "\(browser.logMessages)")
    }
}
