import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The reader page's header, footer and head, and what an expired or unknown id answers.
@Suite(.ownThread) struct ReaderPageTests {
    static let metadata: [String: String] = [
        "title": "Über <Maß>", "content": "<p>Body text.</p>", "sourceURL": "https://www.example.org/news/2026/story?id=7&x=1",
        "byline": "Ada & Co", "siteName": "Example News", "publishedTime": "2026-03-01T09:30:00Z",
        "lang": "de-CH", "dir": "ltr", "excerpt": "Summary \"quoted\"",
    ]

    static func save(_ base: String, _ object: [String: String]) async throws -> (url: String, expires: String) {
        let reply = try await Client.send("POST", base + "/save", body: try JSONSerialization.data(withJSONObject: object),
                                          headers: ["Content-Type": "application/json"])
        try #require(reply.status == 200, "save answered \(reply.status): \(reply.text)")
        let json = try reply.json()
        return (try #require(json["url"] as? String), try #require(json["expires"] as? String))
    }

    @Test func headerSaysWhereTheArticleCameFrom() async throws {
        let clock = TestClock()     // 2027-01-15T08:00:00Z
        let backend = try startBackend(clock: clock) { $0.ttl = 3600 }
        let (url, expires) = try await Self.save(backend.baseURL, Self.metadata)
        #expect(expires == "2027-01-15T09:00:00Z")
        let page = try await Client.get(url)
        let html = page.text
        #expect(html.contains("<html lang=\"de-CH\" dir=\"ltr\">"))
        #expect(html.contains("<link rel=\"canonical\" href=\"https://www.example.org/news/2026/story?id=7&amp;x=1\">"))
        #expect(html.contains("<meta property=\"og:url\" content=\"https://www.example.org/news/2026/story?id=7&amp;x=1\">"))
        #expect(html.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(html.contains("<h1>Über &lt;Maß&gt;</h1>"))
        #expect(html.contains("<span class=\"byline\">Ada &amp; Co</span> · <span class=\"site\">Example News</span> · <time datetime=\"2026-03-01T09:30:00Z\">2026-03-01</time>"))
        #expect(html.contains("Original: <a href=\"https://www.example.org/news/2026/story?id=7&amp;x=1\" rel=\"noreferrer\">example.org/news/2026/story?id=7&amp;x=1</a>"))
        #expect(html.contains("Saved by Piper · expires at 09:00 UTC"))
        #expect(page.header("X-Robots-Tag") == "noindex")
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
    }

    /// What read-later services read: the article alone inside `<article>` under Instapaper's
    /// `instapaper_body` (schema.org's `articleBody` in an `Article`), the page's own lines outside
    /// it marked `instapaper_ignore`, the link to
    /// the original as navigation, and the byline and date also in the head.
    @Test func readLaterServicesReadTheArticleAlone() async throws {
        let backend = try startBackend(clock: TestClock()) { $0.ttl = 3600 }
        let (url, _) = try await Self.save(backend.baseURL, Self.metadata)
        let html = try await Client.get(url).text
        let header = try #require(html.range(of: "<header class=\"saved instapaper_ignore\">"))
        let article = try #require(html.range(of: "<article itemscope itemtype=\"https://schema.org/Article\"><div class=\"instapaper_body\" itemprop=\"articleBody\">\n<p>Body text.</p>\n</div></article>"))
        let footer = try #require(html.range(of: "<footer class=\"saved instapaper_ignore\"><p>Saved by Piper"))
        #expect(header.upperBound <= article.lowerBound && article.upperBound <= footer.lowerBound)
        #expect(html.components(separatedBy: "<article").count == 2, "one article, holding only the body")
        #expect(html.contains("<nav><p class=\"original\">Original: <a href="))
        #expect(html.contains("<meta name=\"author\" content=\"Ada &amp; Co\">"))
        #expect(html.contains("<meta property=\"article:published_time\" content=\"2026-03-01T09:30:00Z\">"))
        #expect(html.contains("<meta name=\"description\" content=\"Summary &quot;quoted&quot;\">"))
    }

    @Test func aPlainSaveHasNoSourceLinesButStillItsExpiry() async throws {
        let backend = try startBackend(clock: TestClock()) { $0.ttl = 2 * 86_400 }
        let url = try await Client.saveURL(backend.baseURL, title: "Plain", content: "<p>x</p>")
        let html = try await Client.get(url).text
        #expect(html.contains("<html><head>"))
        #expect(!html.contains("rel=\"canonical\""))
        #expect(!html.contains("Original:"))
        #expect(html.contains("<meta property=\"og:url\" content=\"\(url)\">"))
        #expect(html.contains("Saved by Piper · expires at 2027-01-17 08:00 UTC"))
    }

    @Test func anExpiredCopyTellsABrowserAndLinksTheOriginal() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let backend = try startBackend(store: store, clock: clock) { $0.ttl = 60 }
        let (url, _) = try await Self.save(backend.baseURL, Self.metadata)
        clock.advance(61)
        try store.deleteExpired(now: clock.read(), keepingSourcesFor: backend.configuration.sourceGrace)
        let browser = ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
        let page = try await Client.send("GET", url, headers: browser)
        #expect(page.status == 404)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.text.contains("<h1>This saved copy has expired</h1>"))
        #expect(page.text.contains("Original: <a href=\"https://www.example.org/news/2026/story?id=7&amp;x=1\""))
        #expect(!page.text.contains("Body text."))
        #expect(!page.text.contains("Ada"))
        // A JSON client keeps getting the documented error.
        for accept in ["application/json", "*/*", nil] as [String?] {
            let reply = try await Client.send("GET", url, headers: accept.map { ["Accept": $0] } ?? [:])
            #expect(reply.status == 404)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect((try reply.json()["error"] as? String)?.isEmpty == false)
        }
        // After the grace period nothing is left to link to.
        clock.advance(backend.configuration.sourceGrace)
        try store.deleteExpired(now: clock.read(), keepingSourcesFor: backend.configuration.sourceGrace)
        let later = try await Client.send("GET", url, headers: browser)
        #expect(later.status == 404)
        #expect(later.text.contains("This saved copy has expired"))
        #expect(!later.text.contains("Original:"))
    }

    @Test func anUnknownIDIsTheSamePageWithoutALink() async throws {
        let backend = try startBackend()
        let page = try await Client.send("GET", backend.baseURL + "/" + UUIDPath.randomID(), headers: ["Accept": "text/html"])
        #expect(page.status == 404)
        #expect(page.text.contains("This saved copy has expired"))
        #expect(!page.text.contains("Original:"))
    }

    @Test(arguments: [
        ("text/html", true), ("text/html,application/json;q=0.9", true), ("application/json", false),
        ("*/*", false), ("application/json, text/html;q=0.5", false), ("text/*", true), ("text/html;q=0", false),
    ])
    func acceptNegotiation(accept: String, html: Bool) {
        #expect(AcceptNegotiation.prefersHTML(accept) == html)
    }

    @Test(arguments: Driver.available)
    func onlyTheSourceURLOutlivesTheArticleForTheGracePeriod(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        var withSource = article(ttl: 10)
        withSource.metadata = ArticleMetadata(sourceURL: "https://example.org/s", byline: "B", lang: "en")
        let without = article(ttl: 10)
        try store.insert(withSource)
        try store.insert(without)
        let t0 = withSource.createdAt
        #expect(try store.expiredSourceURL(id: withSource.id, now: t0, grace: 100) == nil)  // not expired yet
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(10), keepingSourcesFor: 100) == 2)
        #expect(try store.article(id: withSource.id, now: t0.addingTimeInterval(10)) == nil)
        #expect(try store.expiredSourceURL(id: withSource.id, now: t0.addingTimeInterval(10), grace: 100) == "https://example.org/s")
        #expect(try store.expiredSourceURL(id: without.id, now: t0.addingTimeInterval(10), grace: 100) == nil)
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(20), keepingSourcesFor: 100) == 0)
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(110), keepingSourcesFor: 100) == 1)
        #expect(try store.expiredSourceURL(id: withSource.id, now: t0.addingTimeInterval(110), grace: 100) == nil)
    }
}

/// The default rate limit fits a person sharing a reading list in one go.
@Suite(.ownThread) struct DefaultRateLimitTests {
    @Test func sixtySavesInARowFromOneClientAreAllAccepted() async throws {
        let clock = TestClock()
        let backend = try startBackend(clock: clock) {
            let defaults = BackendConfiguration()
            $0.savesPerMinute = defaults.savesPerMinute
            $0.saveBurst = defaults.saveBurst
        }
        #expect(backend.configuration.saveBurst == 60 && backend.configuration.savesPerMinute == 30)
        for index in 0..<60 {
            let reply = try await Client.save(backend.baseURL, title: "Share \(index)", content: "<p>x</p>")
            #expect(reply.status == 200, "save \(index) answered \(reply.status)")
        }
        let over = try await Client.save(backend.baseURL, title: "One too many", content: "<p>x</p>")
        #expect(over.status == 429)
        #expect(over.header("Retry-After") == "2")   // 30 a minute: one every 2 s
        clock.advance(2)
        #expect(try await Client.save(backend.baseURL, title: "Refilled", content: "<p>x</p>").status == 200)
    }
}
