import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The home page in a Pixel-sized Chromium set to another time zone: a download whose server
/// answers 503 shows as postponed with its reason and the next attempt in the phone's own time,
/// and its Try again button, pressed once the server is back, brings it into the library, the
/// page following it there by itself.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct ShareRetryBrowserTests {
    static let zone = "Asia/Kolkata"

    static func state(_ browser: BrowserScript, _ id: String) throws -> String? {
        try browser.evaluate("(function () { var e = document.querySelector('[data-share=\"\(id)\"] .state'); return e ? e.textContent : null; })()")
            as? String
    }

    @Test func aPostponedDownloadShowsItsReasonInThePhonesTimeAndIsRetriedFromThePage() async throws {
        let made = try await ShareRetryTests.postponedShare()
        let (host, file, server, id) = (made.host, made.file, made.server, made.id)
        let due = try #require((made.listed["nextAttempt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })

        let port = try #require(server.url.split(separator: ":").last.map(String.init))
        let base = "http://piper.lan:\(port)"
        let browser = try PhoneBrowserTests.phone(resolving: "piper.lan")
        defer { browser.close() }
        _ = try browser.call("Emulation.setTimezoneOverride", ["timezoneId": Self.zone])
        #expect(try PhoneBrowserTests.pair(browser, at: base, server: server)?.hasPrefix("Paired as") == true)
        try browser.navigate(try #require(URL(string: base + "/")))
        let local = ShareRetryTests.clock(due, zone: Self.zone)
        let line = try Self.state(browser, id)
        #expect(line == "postponed: 127.0.0.1 is having trouble (HTTP 503); Piper tries again at \(local)", "the phone's own time: \(line ?? "nil")")
        #expect(try browser.evaluate("document.querySelector('[data-share=\"\(id)\"] form.retry').hidden") as? Bool == false)

        try host.route("/ep.mp3", .init(body: file))
        try browser.submit("document.querySelector('[data-share=\"\(id)\"] form.retry button').click(); 1")
        var shown = ""
        let imported = eventually(within: 60) {
            shown = (try? Self.state(browser, id)) ?? shown
            return shown.hasPrefix("imported as ")
        }
        #expect(imported, "the page follows the retried job into the library: \(shown)")
        let retryHidden = "(function () { var f = document.querySelector('[data-share=\"\(id)\"] form.retry'); return !f || f.hidden; })()"
        #expect(try browser.evaluate(retryHidden) as? Bool == true, "nothing left to try again")
    }
}
