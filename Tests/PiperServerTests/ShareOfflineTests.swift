import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// No share is lost on the way: an idempotency key makes a retried share one share, a
/// browser's share lands on a result page by a 303 (a reload never shares again), and a share
/// made while the server is away is kept on the phone by the service worker and sent once it
/// is back, exactly once.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareOfflineTests {
    /// The shares of `source` that `headers` may see (default: the owner's browser, who sees all).
    static func records(_ server: ShareServer, source: String, headers: [String: String]? = nil) async throws -> [[String: Any]] {
        var asking = headers ?? [:]
        if headers == nil { asking = try await server.ownerHeaders() }
        let reply = try await Client.send("GET", server.url + "/api/shares", headers: asking)
        return (try reply.json()["shares"] as? [[String: Any]] ?? []).filter { $0["source"] as? String == source }
    }

    @Test func aRetriedShareIsOneShareByItsKey() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let link = site.url("/article").absoluteString
        var headers = try server.bearer
        headers["Idempotency-Key"] = "a1b2c3d4-retry"
        let target = server.url + "/share", body = try JSONSerialization.data(withJSONObject: ["url": link])
        let sent = headers.merging(["Content-Type": "application/json"]) { $1 }
        async let one = Client.send("POST", target, body: body, headers: sent)
        async let two = Client.send("POST", target, body: body, headers: sent)
        let (first, second) = try await (one, two)
        #expect(first.status == 200 && second.status == 200, "\(first.text) \(second.text)")
        #expect(try first.json()["url"] as? String == second.json()["url"] as? String, "the same answer, not a second save")
        let third = try await server.shareJSON(["url": link], headers: headers)
        #expect(try third.json()["url"] as? String == first.json()["url"] as? String)
        #expect(try await Self.records(server, source: link).count == 1)
        let other = try await server.shareJSON(["url": link + "?other"], headers: headers)
        #expect(other.status == 409)
        #expect((try other.json()["error"] as? String)?.contains("used for another share") == true)
        headers["Idempotency-Key"] = "no good!"
        #expect(try await server.shareJSON(["url": link], headers: headers).status == 400)
        // The key also comes as a form field (what a page sends), and holds after a restart.
        let form = try await server.shareForm(["url": link + "?form", "key": "form-key-0001"], headers: try server.bearer)
        try server.restart()
        let again = try await server.shareForm(["url": link + "?form", "key": "form-key-0001"], headers: try server.bearer)
        #expect(try form.json()["url"] as? String == again.json()["url"] as? String)
        #expect(try await Self.records(server, source: link + "?form").count == 1)
    }

    /// A headless Chromium paired with `server`, on its home page, whose service worker controls the page.
    static func pairedBrowser(_ server: ShareServer) throws -> (BrowserScript, URL) {
        let loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        let browser = try BrowserScript(loader: loader)
        try browser.navigate(try #require(URL(string: "\(server.url)/pair?code=\(try server.registry.createPairing())")))
        try browser.submit("document.getElementById('pair').click(); 1")
        let home = try #require(URL(string: server.url + "/"))
        try browser.navigate(home)
        _ = try browser.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        if try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool != true { try browser.navigate(home) }
        try #require(try browser.evaluate("navigator.serviceWorker.controller !== null") as? Bool == true, "the worker controls the page")
        return (browser, home)
    }

    @Test(.enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func aShareMadeWhileTheServerIsAwayIsKeptAndSentOnce() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let (browser, home) = try Self.pairedBrowser(server)
        defer { browser.close() }

        // A share arrives while the server is away: the worker keeps it on the phone.
        let link = site.url("/article").absoluteString
        let audio = try Data(contentsOf: ShareRouteTests.media.appendingPathComponent("sample.mp3")).base64EncodedString()
        server.stopServing()
        try browser.submit(ShareSheetPost.script([("title", "Away"), ("text", "Listen \(link) later")],
                                                 files: [.init(name: "away.mp3", type: "audio/mpeg", bytes: try #require(Data(base64Encoded: audio)))]))
        #expect(try browser.evaluate("document.getElementById('kept-note').innerText") as? String
                == "Piper is not reachable from this phone; it is sent on its own when it is.")
        #expect(try browser.evaluate("Array.from(document.querySelectorAll('#kept li')).map(function (li) { return li.innerText; }).join(' | ')")
                as? String == "\(link) | away.mp3", "the page names what was kept")
        let kept = """
            new Promise(function (done) {
              var open = indexedDB.open('piper', 1);
              open.onsuccess = function () {
                var all = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
                all.onsuccess = function () { window.keptEntries = all.result; done(all.result.length); };
              };
            })
            """
        #expect(try browser.evaluate(kept) as? Int == 1)
        let names = try browser.evaluate("window.keptEntries[0].fields.map(function (f) { return f.file ? f.fileName + ':' + f.file.size : f.name; }).join(',')") as? String
        #expect(names == "title,text,away.mp3:\(Data(base64Encoded: audio)?.count ?? 0)", "the fields and the file are kept: \(names ?? "")")
        let key = try #require(try browser.evaluate("window.keptEntries[0].key") as? String)

        // Back on the same port: opening the app sends it, once.
        try server.startServing(port: port)
        try browser.navigate(home)
        #expect(try browser.evaluate("document.getElementById('waiting-section') !== null") as? Bool == true)
        // Both items of the share (its link and its file) land, once each.
        let sent = try await eventually(within: 60) {
            ((try? await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]]) ?? []).count == 2
        }
        #expect(sent, "the kept share reached the server")
        let emptied = eventually(within: 30) { ((try? browser.evaluate(kept)) as? Int) == 0 }
        #expect(emptied, "the outbox is empty once it was taken")

        // A retried POST (the answer lost twice) with the same key makes no second share.
        let retried = try browser.evaluate("""
            (function () {
              var bytes = Uint8Array.from(atob('\(audio)'), function (c) { return c.charCodeAt(0); });
              function body() {
                var form = new FormData();
                form.append('title', 'Away'); form.append('text', 'Listen \(link) later');
                form.append('file', new File([bytes], 'away.mp3', { type: 'audio/mpeg' }));
                return form;
              }
              return Promise.all([1, 2].map(function () {
                return fetch('/share', { method: 'POST', body: body(), headers: { 'Accept': 'application/json', 'Idempotency-Key': '\(key)' } })
                  .then(function (r) { return r.json(); }).then(function (j) { return j.shares.map(function (s) { return s.job || s.url; }).join(' '); });
              }));
            })()
            """) as? [Any]
        let shares = try await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]] ?? []
        #expect(shares.count == 2, "\(shares)")
        let job = try #require(shares.compactMap { $0["job"] as? String }.first, "the file was journaled: \(shares)")
        let reader = try #require(shares.compactMap { $0["url"] as? String }.first, "the article was saved: \(shares)")
        #expect((retried as? [String]) == ["\(reader) \(job)", "\(reader) \(job)"], "\(retried ?? [])")
        #expect(try browser.evaluate("document.getElementById('waiting-section').hidden") as? Bool == true)
    }
}
