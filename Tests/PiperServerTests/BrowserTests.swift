import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Real headless Chromium loads saved pages.
@Suite(.ownThread) struct BrowserTests {
    /// `chromium --headless --dump-dom URL`; `--no-sandbox` only when running as root.
    func dumpDOM(_ url: String) throws -> String {
        var arguments = ["--headless", "--disable-gpu", "--virtual-time-budget=2000", "--dump-dom", url]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        let (status, out) = try runProcess("/usr/bin/chromium", arguments)
        try #require(status == 0, "chromium exited \(status)")
        return out
    }

    @Test func savedPageRendersWithTitleAndBody() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "Rendered in Chromium",
                                           content: "<p>First paragraph of the body.</p><p>Second, with <em>emphasis</em>.</p>")
        let dom = try dumpDOM(url)
        #expect(dom.contains("<title>Rendered in Chromium</title>"))
        #expect(dom.contains("<h1>Rendered in Chromium</h1>"))
        #expect(dom.contains("First paragraph of the body."))
        #expect(dom.contains("<em>emphasis</em>"))
    }

    @Test func noPayloadRunsInTheBrowser() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "XSS suite",
                                           content: "<p>Survivor text.</p>" + XSSPayloads.all.joined(separator: "\n"))
        let dom = try dumpDOM(url)
        #expect(dom.contains("<title>XSS suite</title>"))
        #expect(dom.contains("Survivor text."))
        #expect(!dom.contains("PWNED"))
        #expect(!dom.contains("pwned"))
    }
}
