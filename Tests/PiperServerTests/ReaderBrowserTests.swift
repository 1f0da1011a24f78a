import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// Real headless Chromium, driven over CDP, reads saved pages: what it sees is what a reader sees.
@Suite(.ownThread, .timeLimit(.minutes(2)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct ReaderBrowserTests {
    /// Loads `url` in Chromium and returns each expression's value as a string.
    static func inspect(_ url: String, _ expressions: [String]) throws -> [String] {
        let loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        let values = try loader.inspect(try #require(URL(string: url)), expressions: expressions)
        return values.map { value in value.map { "\($0)" } ?? "nil" }
    }

    @Test func theHeaderAndHeadAreWhatTheBrowserSees() async throws {
        let backend = try startBackend(clock: TestClock()) { $0.ttl = 3600 }
        var object = ReaderPageTests.metadata
        object["lang"] = "ar"
        object["dir"] = "rtl"
        let (url, _) = try await ReaderPageTests.save(backend.baseURL, object)
        let seen = try Self.inspect(url, [
            "document.documentElement.lang",
            "document.documentElement.dir",
            "document.querySelector('link[rel=canonical]').href",
            "document.querySelector('meta[property=\"og:url\"]').content",
            "document.querySelector('header.saved h1').innerText",
            "document.querySelector('header.saved p.meta').innerText",
            "document.querySelector('header.saved p.original').innerText",
            "document.querySelector('header.saved p.original a').href",
            "document.querySelector('footer.saved').innerText",
            "document.querySelector('meta[name=robots]').content",
        ])
        #expect(seen[0] == "ar")
        #expect(seen[1] == "rtl")
        #expect(seen[2] == "https://www.example.org/news/2026/story?id=7&x=1")
        #expect(seen[3] == "https://www.example.org/news/2026/story?id=7&x=1")
        #expect(seen[4] == "Über <Maß>")
        #expect(seen[5] == "Ada & Co · Example News · 2026-03-01")
        #expect(seen[6] == "Original: example.org/news/2026/story?id=7&x=1")
        #expect(seen[7] == "https://www.example.org/news/2026/story?id=7&x=1")
        #expect(seen[8] == "Saved by Piper · expires at 09:00 UTC")
        #expect(seen[9] == "noindex")
    }

    @Test func anExpiredCopyIsAPageWithTheOriginalsLink() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let backend = try startBackend(store: store, clock: clock) { $0.ttl = 60 }
        let (url, _) = try await ReaderPageTests.save(backend.baseURL, ReaderPageTests.metadata)
        clock.advance(120)
        try store.deleteExpired(now: clock.read(), keepingSourcesFor: backend.configuration.sourceGrace)
        let seen = try Self.inspect(url, [
            "document.querySelector('h1').innerText",
            "document.querySelector('p.original a').href",
            "document.body.innerText.includes('Body text.')",
        ])
        #expect(seen == ["This saved copy has expired", "https://www.example.org/news/2026/story?id=7&x=1", "0"])  // a JS false reads back as NSNumber 0
    }

    @Test func mathRendersAsMathMLAndEmbedsShowLinks() async throws {
        let backend = try startBackend()
        let content = "<p>Euler: <math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup><mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></math></p>"
            + "<p><math display=\"block\"><mfrac><mi>a</mi><mi>b</mi></mfrac></math></p>"
            + "<iframe src=\"https://www.youtube.com/embed/abc\"></iframe><p><svg><circle r=\"1\"/></svg></p>"
        let url = try await Client.saveURL(backend.baseURL, title: "Math and embeds", content: content)
        let seen = try Self.inspect(url, [
            "document.getElementsByTagNameNS('http://www.w3.org/1998/Math/MathML', 'math').length",
            "document.getElementsByTagNameNS('http://www.w3.org/1998/Math/MathML', 'mfrac').length",
            "Array.from(document.querySelectorAll('article a')).map(a => a.innerText + ' -> ' + a.href).join('|')",
            "document.body.innerText.includes('[figure omitted]')",
            "document.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'svg').length",
        ])
        #expect(seen[0] == "2")
        #expect(seen[1] == "1")
        #expect(seen[2] == "▶ Video: youtube.com/embed/abc -> https://www.youtube.com/embed/abc")
        #expect(seen[3] == "1")
        #expect(seen[4] == "0")
    }

    @Test func noMathOrSVGPayloadRunsInTheBrowser() async throws {
        let backend = try startBackend()
        let url = try await Client.saveURL(backend.baseURL, title: "Math XSS suite",
                                           content: "<p>Survivor text.</p>" + XSSPayloads.math.joined(separator: "\n"))
        let seen = try Self.inspect(url, [
            "document.title",
            "document.getElementById('pwned') === null",
            "document.body.innerText.includes('Survivor text.')",
        ])
        #expect(seen == ["Math XSS suite", "1", "1"])
    }
}
