import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// Every answer a phone can get is a page in the app's style: a share from a browser Piper no
/// longer knows keeps its links and files on the phone and says how to pair again (then Send
/// again delivers it); an unknown share id is a "Not found" page for a browser and JSON for a
/// script that asks for JSON.
@Suite(.ownThread, .timeLimit(.minutes(4)))
struct PhoneRefusalTests {
    static let chromium = BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(.enabled(if: chromium, "chromium is not installed"))
    func aShareFromAnUnknownBrowserKeepsWhatItCarriedAndIsSentAgainOncePaired() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let browser = try PhoneBrowserTests.phone(resolving: "piper.unused", timeout: 60)
        defer { browser.close() }
        #expect(try PhoneBrowserTests.pair(browser, at: server.url, server: server) == "Paired as Chrome on Android")
        let home = try #require(URL(string: server.url + "/"))
        try PhoneOfflineTests.openControlled(browser, home)
        for device in try server.registry.devices() { _ = try server.registry.revoke(device.id) }

        // The share sheet's post (two links in the text, one file) from a browser Piper no longer knows.
        let one = site.url("/article").absoluteString + "?one", two = site.url("/article").absoluteString + "?two"
        let audio = try Data(contentsOf: ShareRouteTests.media.appendingPathComponent("sample.ogg"))
        try browser.submit(ShareSheetPost.script([("title", "For later"), ("text", "Read \(one) and \(two)")],
                                                 files: [.init(name: "Morning walk.ogg", type: "audio/ogg", bytes: audio)]))
        #expect(PhoneOfflineTests.text(browser, "outcome") == "Not shared")
        let reason = PhoneOfflineTests.text(browser, "reason")
        #expect(reason.hasPrefix("Piper doesn't know this browser's pairing"), "an unknown cookie is called unknown: \(reason)")
        #expect(!reason.contains("no longer valid"), "\(reason)")
        let kept = try browser.evaluate("Array.from(document.querySelectorAll('#kept li')).map(function (li) { return li.innerText; })") as? [String]
        #expect(kept == [one, two, "Morning walk.ogg"], "the page names what it kept: \(kept ?? [])")
        #expect(PhoneOfflineTests.text(browser, "pair-again").contains("piper pair"), "a way to pair again")
        #expect(try browser.evaluate(PhoneOfflineTests.styled) as? Bool == true, "the refusal is styled")
        #expect(ShareOutboxTests.entries(browser).map { $0[0] } == ["refused"], "kept on the phone")
        #expect(try server.registry.devices().isEmpty)

        // Opening the app (Piper's own "Not paired" page now) lists it, with its way back.
        try browser.navigate(home)
        let listed = eventually(within: 20) {
            ((try? browser.evaluate("(document.getElementById('refused') || {}).innerText || ''")) as? String ?? "").contains("Morning walk.ogg")
        }
        #expect(listed, "\((try? browser.evaluate("document.body.innerText")) ?? "")")
        #expect(try browser.evaluate("document.querySelector('#refused .pair-again') !== null") as? Bool == true)
        #expect(try browser.evaluate("Array.from(document.querySelectorAll('#refused button')).map(function (b) { return b.innerText; }).join(',')")
                as? String == "Send again,Remove")

        // Paired again: Send again delivers it, once.
        // (The pairing page now comes through the worker's fetch, which CDP's user-agent override
        // does not reach: the name is the host's, "Chrome on Linux".)
        let again = try PhoneBrowserTests.pair(browser, at: server.url, server: server)
        #expect(again?.hasPrefix("Paired as Chrome on ") == true, "\(again ?? "nil")")
        try browser.navigate(home)
        let offered = eventually(within: 20) { (try? browser.evaluate("document.querySelector('#refused button.send') !== null")) as? Bool == true }
        #expect(offered)
        _ = try browser.evaluate("document.querySelector('#refused button.send').click(); 1")
        let sent = try await eventually(within: 60) {
            let first = try await ShareOfflineTests.records(server, source: one).count
            let second = try await ShareOfflineTests.records(server, source: two).count
            return first == 1 && second == 1
        }
        #expect(sent, "both links reached Piper")
        #expect(eventually(within: 30) { ShareOutboxTests.entries(browser).isEmpty }, "\(ShareOutboxTests.entries(browser))")
        let shares = try await Client.send("GET", server.url + "/api/shares", headers: try await server.ownerHeaders()).json()["shares"] as? [[String: Any]] ?? []
        #expect(shares.count == 3, "two links and the file, once each: \(shares)")
    }

    @Test(.enabled(if: chromium, "chromium is not installed"))
    func anUnknownShareIsAPageForABrowserAndJSONWhenAsked() async throws {
        let server = try ShareServer()
        let browser = try PhoneBrowserTests.phone(resolving: "piper.unused")
        defer { browser.close() }
        #expect(try PhoneBrowserTests.pair(browser, at: server.url, server: server) == "Paired as Chrome on Android")
        try browser.navigate(try #require(URL(string: server.url + "/shares/no-such-share")))
        #expect(try browser.evaluate("document.title") as? String == "Not found — Piper")
        #expect(PhoneOfflineTests.text(browser, "reason") == "No recent share has the id no-such-share")
        #expect(try browser.evaluate(PhoneOfflineTests.styled) as? Bool == true)
        #expect(try browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true, "fits the phone")

        var asked = try await server.ownerHeaders()
        asked["Accept"] = "application/json"
        let json = try await Client.send("GET", server.url + "/shares/no-such-share", headers: asked)
        #expect(json.status == 404 && json.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(try json.json()["error"] as? String == "No recent share has the id no-such-share")
        asked["Accept"] = "text/html,application/xhtml+xml"
        let page = try await Client.send("GET", server.url + "/shares/no-such-share", headers: asked)
        #expect(page.status == 404 && page.header("Content-Type") == "text/html; charset=utf-8" && page.text.contains("<h1>Not found</h1>"))
        let nowhere = try await Client.send("GET", server.url + "/nothing-here", headers: ["Accept": "text/html"])
        #expect(nowhere.status == 404 && nowhere.text.contains("<h1>Not found</h1>"), "\(nowhere.text)")
        #expect(try await Client.send("GET", server.url + "/nothing-here").json()["error"] as? String == "Not found", "a script gets JSON")
    }

    @Test func eachFailureIsAPageWithItsHeadingAndHeaders() {
        func page(_ error: any Error) -> (Int, String, [(name: String, value: String)]) {
            let response = WebPage.page(for: error)
            return (response.status, String(decoding: response.body, as: UTF8.self), response.headers)
        }
        let limited = page(HTTPError(429, "Too many shares from phone; try again in 3 s", headers: [("Retry-After", "3")]))
        #expect(limited.0 == 429 && limited.1.contains("<title>Too many requests — Piper</title>"))
        #expect(limited.2.contains { $0.name == "Retry-After" && $0.value == "3" })
        #expect(limited.2.contains { $0.name == "Content-Security-Policy" })
        #expect(page(HTTPError(410, "This link has expired")).1.contains("<h1>Expired</h1>"))
        #expect(page(HTTPError(403, "This needs the owner's browser")).1.contains("<h1>Not allowed</h1>"))
        let hidden = page(CocoaError(.fileReadCorruptFile))
        #expect(hidden.0 == 500 && hidden.1.contains("<h1>Something went wrong</h1>") && !hidden.1.contains("Cocoa"))
    }
}
