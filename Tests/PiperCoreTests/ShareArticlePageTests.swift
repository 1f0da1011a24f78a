import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// `ShareDriver.articlePage`: `piper extract URL` loads through the share flow and stops where
/// the share would extract.
@Suite(.ownThread) struct ShareArticlePageTests {
    @Test func plainPageLoadsOverHTTPAndNothingIsSaved() throws {
        let world = FakeWorld()
        let page = try world.articlePage("https://example.com/a")
        #expect(page.loader == .http)
        #expect(world.calls == ["load http https://example.com/a cookies=", "parse http", "readerable? http"])
    }

    @Test func browserOptionIsHonoured() throws {
        let world = FakeWorld()
        let always = try world.articlePage("https://example.com/a", ShareFlow.Options(browser: .always))
        #expect(always.loader == .browser)
        var never = FakeWorld()
        never.extractor.readerable = false
        #expect(try never.articlePage("https://example.com/a", ShareFlow.Options(browser: .never)).loader == .http)
        #expect(!never.calls.contains("readerable? http"))
    }

    @Test func unreadablePageGetsTheBrowserSecondOpinion() throws {
        var world = FakeWorld()
        world.extractor.readerable = false
        #expect(try world.articlePage("https://example.com/a").loader == .browser)
    }

    /// An X link needs cookies, loads in the browser, and is read as a post (as the share reads it).
    @Test func xLinksNeedCookiesAndUseTheBrowser() throws {
        let world = FakeWorld()
        #expect(throws: ShareFailure.connectX) { try world.articlePage("https://x.com/someone/status/1") }
        var connected = FakeWorld()
        connected.cookies.jar = .success(xJar())
        let source = try connected.articleSource("https://x.com/someone/status/1")
        #expect(source == .post(ExtractedArticle(title: "A post on X", content: "<p>The post</p>")))
        #expect(connected.calls == ["load browser https://x.com/someone/status/1 cookies=auth_token", "post X 200"])
    }

    @Test func mediaLinksAreNotPages() throws {
        let world = FakeWorld()
        #expect(throws: ShareFailure.notAPage("https://example.com/episode.mp3")) {
            try world.articlePage("https://example.com/episode.mp3")
        }
        #expect(!world.calls.contains { $0.hasPrefix("media") })
    }

    @Test func loadFailuresAreThrown() throws {
        var world = FakeWorld()
        world.http.error = .other(URL(string: "https://example.com/a")!, "boom")
        #expect(throws: LoadError.self) { try world.articlePage("https://example.com/a") }
    }
}
