import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The Piper spec's flow table, plus the routing rules, with fakes for the ports.
@Suite(.ownThread) struct ShareFlowTests {
    // Spec: no cookies → message.
    @Test func xLinkWithoutCookiesAsksToConnect() {
        let world = FakeWorld()
        let result = world.run(["https://x.com/someone/status/1"])
        #expect(result.message == Messages.connectX)
        #expect(result.category != nil)
        #expect(world.calls.isEmpty)
    }

    @Test func xLinkWithOnlyExpiredCookiesAsksToConnect() {
        var world = FakeWorld()
        world.cookies.jar = .success(xJar(expired: true))
        #expect(world.run(["https://twitter.com/someone/status/1"]).message == Messages.connectX)
    }

    // Spec: no URL → message.
    @Test func noURLInInput() {
        let world = FakeWorld()
        let result = world.run(["just some words", "and more"])
        #expect(result.message == Messages.noURL)
        #expect(result.category == .badData)
        #expect(world.calls.isEmpty)
    }

    // Spec: happy path → success text.
    @Test func happyPathSavesAndCopies() throws {
        let world = FakeWorld()
        let result = world.run(["look at this: https://example.com/post/1."])
        guard case .saved(let url, let title, let clip, _, _) = result else {
            Issue.record("expected saved, got \(result)")
            return
        }
        #expect(result.message == Messages.saved)
        #expect(result.category == nil)
        #expect(title == "A fine article")
        #expect(clip == .copied("fake"))
        #expect(world.calls == [
            "load http https://example.com/post/1 cookies=",
            "parse http",
            "readerable? http",
            "extract http",
            "save A fine article",
            "copy \(url.absoluteString)",
        ])
    }

    // Spec: extraction failure → error.
    @Test func extractionFailureIsAnError() {
        var world = FakeWorld()
        world.http.html = "<html><body>Log in to continue</body></html>"
        let result = world.run(["https://example.com/wall"], .init(browser: .never))
        #expect(result.message.hasPrefix("Extraction failed"))
        #expect(result.category == .badData)
        #expect(!world.calls.contains { $0.hasPrefix("save") })
    }

    // Spec: network failure → error with its reason.
    @Test func networkFailureCarriesItsReason() {
        var world = FakeWorld()
        world.saver.result = .failure(.unreachable(URL(string: "http://127.0.0.1:1")!, "Connection refused"))
        let result = world.run(["https://example.com/post"])
        #expect(result.message.hasPrefix("Failed to save: "))
        #expect(result.message.contains("Connection refused"))
        #expect(result.category == .unavailable)
        #expect(!world.calls.contains { $0.hasPrefix("copy") })
    }

    @Test func pageLoadFailureCarriesItsReason() {
        var world = FakeWorld()
        world.http.error = .httpStatus(URL(string: "https://example.com/gone")!, 404)
        let result = world.run(["https://example.com/gone"])
        #expect(result.message.contains("404"))
        #expect(result.category == .other)
    }

    @Test func xLinkWithCookiesUsesTheBrowserWithTheCookies() {
        var world = FakeWorld()
        world.cookies.jar = .success(xJar())
        let result = world.run(["https://x.com/someone/status/1"])
        #expect(result.category == nil)
        #expect(world.calls.first == "load browser https://x.com/someone/status/1 cookies=auth_token")
    }

    @Test func notReaderableOverHTTPRetriesInTheBrowser() {
        var world = FakeWorld()
        world.extractor.readerable = false
        let result = world.run(["https://example.com/app"])
        #expect(result.category == nil)
        #expect(world.calls.prefix(6) == ["load http https://example.com/app cookies=", "parse http", "readerable? http",
                                          "load browser https://example.com/app cookies=", "parse browser", "extract browser"])
    }

    @Test func browserFailureAfterHTTPFallsBackToTheHTTPPage() {
        var world = FakeWorld()
        world.extractor.readerable = false
        world.browser?.error = .browserFailed("crashed")
        #expect(world.run(["https://example.com/app"]).category == nil)
        #expect(world.calls.contains("extract http"))
    }

    /// When the HTTP copy holds no article either, the share ends with why the browser failed.
    @Test func aFailedBrowserIsTheReasonWhenTheHTTPCopyHoldsNoArticle() {
        var world = FakeWorld()
        world.extractor.readerable = false
        world.http.html = "<div id=root></div>"
        world.browser?.error = .browserFailed("Chromium stopped while loading the page")
        let result = world.run(["https://example.com/app"])
        #expect(result.message == LoadError.browserFailed("Chromium stopped while loading the page").description)
        #expect(world.calls.contains("extract http"), "the HTTP copy was still tried")
    }

    /// A host named as an X host loads in the browser as X does, without asking for X's cookies.
    @Test func anExtraXHostLoadsInTheBrowserWithoutXsCookies() {
        let world = FakeWorld()
        var options = ShareFlow.Options()
        options.posts = PostLinks(xHosts: ["nitter.example"])
        #expect(world.run(["https://nitter.example/ada/status/1"], options).category == nil)
        #expect(world.calls.first == "load browser https://nitter.example/ada/status/1 cookies=")
    }

    @Test func browserNeededButMissingSaysHowToInstall() {
        var world = FakeWorld()
        world.browser = nil
        let result = world.run(["https://example.com/app"], .init(browser: .always))
        #expect(result.message.contains("apt-get install chromium"))
        #expect(result.category == .unavailable)
    }

    @Test func neverModeKeepsToHTTPAndSkipsTheCheck() {
        var world = FakeWorld()
        world.extractor.readerable = false
        #expect(world.run(["https://example.com/a"], .init(browser: .never)).category == nil)
        #expect(!world.calls.contains { $0.contains("browser") || $0.hasPrefix("readerable") })
    }

    @Test func mediaExtensionGoesToTheMediaQueue() {
        let world = FakeWorld()
        let result = world.run(["https://example.com/ep1.mp3"], .init(mediaFolder: "Podcasts"))
        #expect(result == .mediaQueued(MediaReceipt(id: "1", url: "https://example.com/ep1.mp3", message: "Queued for download")))
        #expect(world.calls == ["media https://example.com/ep1.mp3 into=Podcasts type=- title=-"])
    }

    @Test func mediaContentTypeGoesToTheMediaQueue() {
        var world = FakeWorld()
        world.http.contentType = "audio/mpeg"
        #expect(world.run(["https://example.com/download?id=7"]).category == nil)
        #expect(world.calls.last == "media https://example.com/download?id=7 into=- type=audio/mpeg title=-")
    }

    @Test func localFileGoesToTheMediaQueue() {
        let world = FakeWorld()
        #expect(world.run(["/tmp/book.m4b"]).category == nil)
        #expect(world.calls == ["file /tmp/book.m4b"])
    }

    @Test func mediaWithoutAQueueIsReportedNotSaved() {
        var world = FakeWorld()
        world.media = nil
        let result = world.run(["https://example.com/ep1.mp3"])
        #expect(result.message.contains("media downloads are not available in this build"))
        #expect(result.category == .other)
        #expect(!world.calls.contains { $0.hasPrefix("save") })
    }

    @Test func clipboardFailureDoesNotFailTheSave() {
        var world = FakeWorld()
        world.clipboard.fails = true
        let result = world.run(["https://example.com/post"])
        #expect(result.category == nil)
        guard case .saved(_, _, .failed(let why), _, _) = result else {
            Issue.record("expected a save with a clipboard failure, got \(result)")
            return
        }
        #expect(why.contains("No clipboard"))
    }

    @Test func noClipboardSkipsTheCopy() {
        let world = FakeWorld()
        let result = world.run(["https://example.com/post"], .init(copyToClipboard: false))
        #expect(result.category == nil)
        #expect(!world.calls.contains { $0.hasPrefix("copy") })
    }

    @Test func emptyTitleFallsBackToTheLink() {
        var world = FakeWorld()
        world.http.html = "<article>TITLE:\nwords</article>"
        guard case .saved(_, let title, _, _, _) = world.run(["https://example.com/posts/hello-world"]) else {
            Issue.record("expected saved")
            return
        }
        #expect(title == "example.com — hello-world")
    }

    @Test func theMachineIgnoresEventsOutOfStage() {
        var flow = ShareFlow(input: ShareInput(["https://example.com/a"]))
        #expect(flow.handle(.saved(URL(string: "http://127.0.0.1/x")!)).isEmpty)
        #expect(flow.start() == [.loadCookies])
        #expect(flow.start().isEmpty)
        #expect(!flow.isFinished)
    }
}

/// A share's time limit, on a clock the test moves: every load takes a minute.
@Suite(.ownThread) struct ShareTimeLimitTests {
    /// A clock that moves a minute each time a load reads it. `@unchecked Sendable`: `lock`.
    final class MinuteClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_800_000_000)
        func advance() { lock.lock(); current += 60; lock.unlock() }
        var now: Date { lock.lock(); defer { lock.unlock() }; return current }
    }

    struct SlowLoader: PageLoader {
        let inner: FakeLoader
        let clock: MinuteClock
        func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
            clock.advance()
            return try inner.load(url, cookies: cookies)
        }
        func loadAnswer(_ url: URL) throws -> LoadedPage { try inner.loadAnswer(url) }
    }

    func run(_ world: FakeWorld, limit: TimeInterval?, clock: MinuteClock) -> ShareResult {
        let ports = SharePorts(cookies: world.cookies, httpLoader: SlowLoader(inner: world.http, clock: clock),
                               browserLoader: world.browser.map { SlowLoader(inner: $0, clock: clock) },
                               extractor: world.extractor, saver: world.saver, clipboard: world.clipboard,
                               media: world.media, reporter: FakeReporter(log: world.log))
        var options = ShareFlow.Options(copyToClipboard: false)
        options.timeLimit = limit
        return ShareDriver(ports: ports, clock: { clock.now }).run(ShareInput(["https://example.com/post/1"]), options: options)
    }

    /// The HTTP copy is not readerable, so the share loads the page again in the browser: the
    /// second load starts a minute in, past a 30-second limit, and never happens.
    @Test func aShareStopsBeforeALoadPastItsLimitAndSavesNothing() {
        var world = FakeWorld()
        world.extractor.readerable = false
        let result = run(world, limit: 30, clock: MinuteClock())
        #expect(result.message == ShareFailure.tookTooLong(seconds: 30).description)
        #expect(result.category == .unavailable)
        #expect(world.calls.filter { $0.hasPrefix("load") }.count == 1)
        #expect(!world.calls.contains { $0.hasPrefix("save") })
    }

    @Test func withinItsLimitOrWithoutOneTheShareIsSaved() {
        for limit in [nil, 600] as [TimeInterval?] {
            var world = FakeWorld()
            world.extractor.readerable = false
            let result = run(world, limit: limit, clock: MinuteClock())
            #expect(result.message == Messages.saved, "limit \(String(describing: limit))")
            #expect(world.calls.filter { $0.hasPrefix("load") }.count == 2)
        }
    }
}
