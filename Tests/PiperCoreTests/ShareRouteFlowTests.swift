import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The share flow's route steps: the page parsed once, its evidence read, and the route the
/// rules decide carried out; an article that holds a clip stays an article.
@Suite(.ownThread) struct ShareRouteFlowTests {
    let page = "https://example.com/ep/7"
    let audio = URL(string: "https://cdn.example/ep7.mp3")!

    func world(_ evidence: RouteEvidence, html: String = articleHTML) -> FakeWorld {
        var world = FakeWorld()
        world.http.html = html
        world.finder = FakeFinder(evidence: evidence, log: world.log)
        return world
    }

    func candidate(_ source: MediaCandidate.Source = .audioElement, named: Bool = false) -> MediaCandidate {
        MediaCandidate(url: audio, source: source, signal: source.rawValue, namedLikeThePage: named)
    }

    @Test func anEpisodeIsQueuedWithoutExtractingThePage() {
        let world = world(RouteEvidence(candidates: [candidate(.openGraphAudio)], title: "Ep 7", author: "Jo"))
        let result = world.run([page])
        guard case .mediaQueued = result else { Issue.record("expected queued, got \(result)"); return }
        #expect(world.calls == [
            "load http \(page) cookies=", "parse http", "route http",
            "media \(audio.absoluteString) into=- type=- title=Ep 7",
        ])
    }

    @Test func aClipInALongArticleIsSavedAndMentioned() {
        let world = world(RouteEvidence(candidates: [candidate()]))
        let result = world.run([page])
        guard case .saved(_, _, _, _, let also) = result else { Issue.record("expected saved, got \(result)"); return }
        #expect(also == audio)
        #expect(world.calls == ["load http \(page) cookies=", "parse http", "route http", "readerable? http", "extract http",
                                "save A fine article", "copy http://127.0.0.1:9/3f1c2a9e-0000-4000-8000-000000000001"])
        #expect(world.calls.filter { $0.hasPrefix("parse") }.count == 1, "one parse for every step")
    }

    @Test func aPageTooShortForAnArticleIsTheMediaItNames() {
        var world = world(RouteEvidence(candidates: [candidate()]), html: "<p>Listen</p>")
        world.browser = nil
        let result = world.run([page])
        guard case .mediaQueued = result else { Issue.record("expected queued, got \(result)"); return }
        #expect(world.calls.suffix(2) == ["extract http", "media \(audio.absoluteString) into=- type=- title=-"])
    }

    @Test func aPageNotReaderableThatNamesItsMediaIsNotLoadedInChromium() {
        var world = world(RouteEvidence(candidates: [candidate()]))
        world.extractor.readerable = false
        let result = world.run([page])
        guard case .mediaQueued = result else { Issue.record("expected queued, got \(result)"); return }
        #expect(!world.calls.contains { $0.hasPrefix("load browser") })
    }

    /// Probing an incidental link never fails an article share.
    @Test func mediaThatCannotBeQueuedLeavesTheArticle() {
        var world = world(RouteEvidence(candidates: [candidate(.openGraphAudio)]))
        world.media?.refuses = [audio.absoluteString]
        let result = world.run([page])
        guard case .saved = result else { Issue.record("expected saved, got \(result)"); return }
        #expect(world.log.all.contains { $0.hasPrefix("progress Could not queue the page's media (Cannot check \(audio.absoluteString)") })
        // Asked for media, the same share fails with the reason.
        var asked = self.world(RouteEvidence(candidates: [candidate(.openGraphAudio)]))
        asked.media?.refuses = [audio.absoluteString]
        var options = ShareFlow.Options()
        options.route = .media
        #expect(asked.run([page], options).message == "Cannot check \(audio.absoluteString): Could not resolve host")
    }

    /// Feeds are searched only for a page that declares an episode and names no file.
    @Test func feedsOnlyForAPageThatDeclaresAnEpisode() {
        let feed = URL(string: "https://example.com/feed.xml")!
        let plain = world(RouteEvidence(feeds: [feed]))
        guard case .saved = plain.run([page]) else { Issue.record("an article with a feed link is an article"); return }
        #expect(!plain.calls.contains { $0.hasPrefix("feeds") })

        var declared = world(RouteEvidence(declaresSeriesEpisode: true, feeds: [feed]))
        declared.finder?.feedAnswer = DiscoveredMedia(url: audio, signal: "feed", title: "Seven")
        guard case .mediaQueued = declared.run([page]) else { Issue.record("the feed names the episode"); return }
        #expect(declared.calls.contains("feeds \(feed.absoluteString)"))
        #expect(declared.calls.last == "media \(audio.absoluteString) into=- type=- title=Seven")

        let unnamed = world(RouteEvidence(declaresSeriesEpisode: true, feeds: [feed]))
        guard case .saved = unnamed.run([page]) else { Issue.record("no feed item: the page is saved"); return }
        let video = world(RouteEvidence(declaresEpisode: true, feeds: [feed]))
        guard case .saved = video.run([page]) else { Issue.record("a video page naming no file is saved"); return }
        #expect(!video.calls.contains { $0.hasPrefix("feeds") }, "only a series' episode is searched for in feeds")
        guard case .saved = unnamed.run([page]) else { Issue.record("no feed item: the page is saved"); return }
    }

    @Test func asMediaOnAPageWithNoMediaFails() {
        let world = world(RouteEvidence())
        var options = ShareFlow.Options()
        options.route = .media
        #expect(world.run([page], options).message == ShareFailure.noMediaOnPage(page).description)
    }

    /// An extension-less link the server says is audio: the queue is told, not asked again.
    @Test func theQueueTakesTheContentTypeTheFlowHas() {
        var world = FakeWorld()
        world.http.contentType = "audio/mpeg"
        guard case .mediaQueued = world.run(["https://example.com/stream"]) else { Issue.record("expected queued"); return }
        #expect(world.calls.last == "media https://example.com/stream into=- type=audio/mpeg title=-")
        #expect(!world.calls.contains { $0.hasPrefix("parse") })
    }

    /// A share link is made direct once, by the flow.
    @Test func aDropboxLinkIsMadeDirectOnce() {
        let world = FakeWorld()
        _ = world.run(["https://www.dropbox.com/s/abc/Episode.mp3?dl=0"])
        #expect(world.calls == ["media https://www.dropbox.com/s/abc/Episode.mp3?dl=1 into=- type=- title=-"])
    }
}
