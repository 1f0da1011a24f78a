import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The web app's outbox in a real headless Chromium: an entry stays on the phone until Piper
/// has taken it. A share answered with a server error (5xx) is kept, said to be a failing
/// server (not an unreachable one), tried again on its own with backoff, and leaves once it is
/// taken; a share Piper refuses for good (a revoked phone) is shown with its reason.
@Suite(.ownThread, .timeLimit(.minutes(4)))
struct ShareOutboxTests {
    /// The outbox's entries in the page: `[state, status, reason, tries]` each.
    static let outbox = """
        new Promise(function (done) {
          var open = indexedDB.open('piper', 1);
          open.onsuccess = function () {
            var all = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
            all.onsuccess = function () {
              done(all.result.map(function (e) { return [e.state || '', String(e.status || 0), e.reason || '', String(e.tries || 0)]; }));
            };
          };
        })
        """

    static func entries(_ browser: BrowserScript) -> [[String]] {
        ((try? browser.evaluate(outbox)) as? [[Any]] ?? []).map { $0.map { "\($0)" } }
    }

    /// Submits a share of `link` from the page as the share sheet does (a navigation POST).
    static func share(_ link: String, in browser: BrowserScript) throws {
        try browser.submit("""
            (function () {
              var form = document.createElement('form');
              form.method = 'post'; form.action = '/share'; form.enctype = 'multipart/form-data';
              var input = document.createElement('input'); input.type = 'hidden'; input.name = 'url'; input.value = '\(link)';
              form.appendChild(input); document.body.appendChild(form); form.submit(); return 1;
            })()
            """)
    }

    @Test(.enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func aServerErrorIsRetriedUntilTakenAndARefusalIsShownWithItsReason() async throws {
        // The page fails (500) until the test mends it: the share is answered 502.
        let site = try ShareSite.start(extra: ["/flaky": .html("<p>down</p>", status: 500)])
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let (browser, home) = try ShareOfflineTests.pairedBrowser(server)
        defer { browser.close() }

        // A 5xx: kept, and said to be Piper failing, not Piper unreachable.
        let link = site.url("/flaky").absoluteString
        try Self.share(link, in: browser)
        let note = try browser.evaluate("(document.getElementById('kept-note') || document.body).innerText") as? String ?? ""
        #expect(note.contains("reachable but answered with an error (502)"), "\(note)")
        #expect(Self.entries(browser).map { $0[0] } == ["failing"])

        // Opening the app tries again: still failing, still kept, and the page says why.
        try browser.navigate(home)
        var kept: [[String]] = []
        let retried = eventually(within: 30) {
            kept = Self.entries(browser)
            return kept.count == 1 && kept[0][0] == "failing" && (Int(kept[0][3]) ?? 0) >= 2
        }
        #expect(retried, "\(kept)")
        let shown = eventually(within: 10) {
            ((try? browser.evaluate("(document.getElementById('waiting') || {}).innerText || ''")) as? String ?? "")
                .contains("Piper is reachable but answered with an error (502")
        }
        #expect(shown, "the page says the server is reachable but failing")

        // Mended: the next try (on its own, the page left open) is taken, and the entry leaves.
        try site.setRoute("/flaky", .html(ShareSite.articleHTML))
        let taken = eventually(within: 60) { Self.entries(browser).isEmpty }
        #expect(taken, "\(Self.entries(browser))")
        let saved = try await ShareOfflineTests.records(server, source: link)
        #expect(saved.map { $0["status"] as? String ?? "" }.contains("saved"), "\(saved)")

        // Away, then back with this phone revoked: the kept share is refused, and the page says why.
        server.stopServing()
        try Self.share(site.url("/article").absoluteString, in: browser)
        #expect(Self.entries(browser).map { $0[0] } == ["unreachable"])
        for device in try server.registry.devices() { _ = try server.registry.revoke(device.id) }
        try server.startServing(port: port)
        try browser.navigate(home)
        var refusal = ""
        let refused = eventually(within: 30) {
            refusal = ((try? browser.evaluate("(document.getElementById('refused') || {}).innerText || ''")) as? String) ?? ""
            return refusal.contains("Piper doesn't know this browser's pairing")
        }
        #expect(refused, "the refusal is shown with its reason: '\(refusal)'")
        #expect(Self.entries(browser).map { $0[0] } == ["refused"], "kept, marked refused, until removed")
        _ = try browser.evaluate("document.querySelector('#refused button.remove').click(); 1")
        #expect(eventually(within: 10) { Self.entries(browser).isEmpty }, "removed")
    }
}
