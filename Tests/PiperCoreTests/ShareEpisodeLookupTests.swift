import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// A page whose episode signal names its file elsewhere: the flow asks the page's podcast
/// players, then its feeds, and takes the route it would otherwise have taken when neither
/// names the episode. A generic `og:type article` does not veto an episode's own signals.
@Suite(.ownThread) struct ShareEpisodeLookupTests {
    let page = "https://example.com/ep/7"
    let audio = URL(string: "https://cdn.example/ep7.mp3")!
    let feed = URL(string: "https://example.com/feed.xml")!
    let player = URL(string: "https://www.buzzsprout.com/1/2?iframe=true")!

    func world(_ evidence: RouteEvidence) -> FakeWorld {
        var world = FakeWorld()
        world.finder = FakeFinder(evidence: evidence, log: world.log)
        return world
    }

    @Test func thePlayerIsAskedFirstThenTheFeedThenThePageIsTheArticle() {
        let feed = self.feed, audio = self.audio
        let player = MediaCandidate(url: audio, source: .audioElement, signal: "audio")
        let evidence = RouteEvidence(declaresArticle: true, candidates: [player], feeds: [feed], players: [self.player], title: "Ep 7")
        #expect(RouteRules.decide(evidence, preference: .auto)
                == .lookUp(EpisodeLookup(players: [self.player], feeds: [feed]), otherwise: .article(alsoFound: player)))

        // Neither names it: the article is saved and the file said beside it.
        let none = world(evidence)
        guard case .saved(_, _, _, _, let also) = none.run([page]) else { Issue.record("expected the article"); return }
        #expect(also == audio)
        #expect(none.calls.contains("players \(self.player.absoluteString)") && none.calls.contains("feeds \(feed.absoluteString)"))

        // The feed names it: queued with the page's title, nothing extracted.
        var byFeed = world(evidence)
        byFeed.finder?.feedAnswer = DiscoveredMedia(url: audio, signal: "feed", title: "Ep 7")
        guard case .mediaQueued = byFeed.run([page]) else { Issue.record("the feed names the episode"); return }
        #expect(!byFeed.calls.contains { $0.hasPrefix("extract") || $0.hasPrefix("save") })

        // The player names it: the feed is not asked.
        var byPlayer = world(evidence)
        byPlayer.finder?.playerAnswer = DiscoveredMedia(url: audio, signal: "player", title: "Ep 7")
        guard case .mediaQueued = byPlayer.run([page]) else { Issue.record("the player names the episode"); return }
        #expect(!byPlayer.calls.contains { $0.hasPrefix("feeds") })
        #expect(byPlayer.calls.last == "media \(audio.absoluteString) into=- type=- title=Ep 7")
    }

    @Test func episodeSignalsOutweighAGenericArticleDeclaration() {
        func decide(_ candidate: MediaCandidate, declaresArticle: Bool = true) -> RouteDecision {
            RouteRules.decide(RouteEvidence(declaresArticle: declaresArticle, candidates: [candidate]), preference: .auto)
        }
        let audio = self.audio
        #expect(decide(MediaCandidate(url: audio, source: .openGraphAudio, signal: "og:audio")) == .episode(MediaCandidate(url: audio, source: .openGraphAudio, signal: "og:audio")))
        let offered = MediaCandidate(url: audio, source: .audioElement, signal: "audio", offeredAsDownload: true)
        #expect(decide(offered) == .episode(offered))
        let named = MediaCandidate(url: audio, source: .pageData, signal: "page data", namedLikeThePage: true)
        #expect(decide(named) == .episode(named))
        // A news story's video named as the story stays the article.
        let video = MediaCandidate(url: URL(string: "https://cdn.example/story.mp4")!, source: .jsonLD, signal: "json-ld VideoObject", namedLikeThePage: true)
        #expect(decide(video) == .article(alsoFound: video))
        // A clip is never the episode, whatever names it.
        let clip = MediaCandidate(url: audio, source: .openGraphAudio, signal: "og:audio", duration: 45)
        #expect(decide(clip) == .article(alsoFound: nil))
        // An unnamed player on an article with no feed: the article.
        let plain = MediaCandidate(url: audio, source: .audioElement, signal: "audio")
        #expect(decide(plain) == .article(alsoFound: plain))
        // Page data holding a whole show's list is no episode signal.
        let list = (1...6).map { MediaCandidate(url: URL(string: "https://cdn.example/\($0).mp3")!, source: .pageData, signal: "page data") }
        #expect(RouteRules.decide(RouteEvidence(candidates: list, feeds: [feed]), preference: .auto) == .article(alsoFound: list[0]))
    }
}
