import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// The episode evidence podcast hosts' pages give beyond their markup's players: page data,
/// a player card's title, the host's player iframe; and the negatives beside them (a
/// narration of the article, a front page's latest-episode player).
@Suite(.ownThread) struct PageDataTests {
    func evidence(_ html: String, at url: String = "https://pod.example/episodes/42") -> RouteEvidence {
        let page = ReadabilityExtractor().parse(LoadedPage(requestedURL: URL(string: url)!, contentType: "text/html", body: Data(html.utf8)))
        return PageMediaFinder(playerHosts: []).evidence(in: page)
    }

    /// A script of many openers that never close reads its bytes a few times over, not once
    /// from each opener to its end (here 200,000 openers in 1.2 MB: without the bound, about
    /// 10^11 bytes read, hours of a share's thread), and still names its bare address.
    @Test(.timeLimit(.minutes(1))) func aScriptOfOpenersThatNeverCloseIsReadInLinearTime() {
        let script = String(repeating: #"=["a","#, count: 200_000) + " https://cdn.example/ep.mp3"
        #expect(PageData.fromScript(script).map(\.url) == ["https://cdn.example/ep.mp3"])
    }

    @Test func aPreloadStringNamesThePostsEpisodeButNotItsNarration() {
        let html = #"""
            <html><head><title>Ep 3: Ferries</title><meta property="og:type" content="article"></head><body><p>Notes</p>
            <script>window._preloads = JSON.parse("{\"post\":{\"title\":\"Ep 3: Ferries\",\"podcast_url\":\"https://cdn.example/ep3.mp3\",\"audio_items\":[{\"voice_id\":\"en-US-Nova\",\"audio_url\":\"https://cdn.example/tts/post.mp3\",\"type\":\"tts\"}]}}")</script>
            </body></html>
            """#
        let read = evidence(html)
        #expect(read.candidates.map(\.url.absoluteString) == ["https://cdn.example/ep3.mp3"])
        #expect(read.candidates.first?.namedLikeThePage == true)
        guard case .episode(let file) = RouteRules.decide(read, preference: .auto) else { Issue.record("not the episode"); return }
        #expect(file.source == .pageData)

        let narrated = html.replacingOccurrences(of: #"\"podcast_url\":\"https://cdn.example/ep3.mp3\","#, with: "")
        #expect(evidence(narrated).candidates.isEmpty, "a narration of the post is not an episode")
    }

    @Test func nextDataAndHydrationObjectsNameTheirFilesWithTheirTitles() {
        let html = """
            <html><head><title>Night drive</title><meta property="og:type" content="music.song"></head><body>
            <script id="__NEXT_DATA__" type="application/json">{"props":{"episodes":[{"title":"Other one","audioUrl":"https://cdn.example/o.mp3"}]}}</script>
            <script>window.__sc_hydration = [{"hydratable":"sound","data":{"title":"Night drive","media":{"transcodings":[{"url":"https://cdn.example/n.mp3"}]}}}];</script>
            </body></html>
            """
        let read = evidence(html)
        #expect(read.candidates.map(\.url.absoluteString) == ["https://cdn.example/o.mp3", "https://cdn.example/n.mp3"])
        #expect(read.candidates.map(\.namedLikeThePage) == [false, true])
        guard case .episode(let file) = RouteRules.decide(read, preference: .auto) else { Issue.record("not the episode"); return }
        #expect(file.url.absoluteString == "https://cdn.example/n.mp3")
    }

    @Test func aPlayerCardsTitleNamesItsFileButTheArticlesHeadingDoesNot() {
        let card = """
            <html><head><title>Ep 9: Harbour lights</title><meta property="og:type" content="article"></head><body><article><h1>Ep 9: Harbour lights</h1>
            <div class="kg-audio-player-container"><audio src="/ep9.mp3"></audio><div class="kg-audio-title">Ep 9: Harbour lights</div></div><p>Notes</p></article></body></html>
            """
        #expect(evidence(card).candidates.first?.namedLikeThePage == true)
        let inArticle = """
            <html><head><title>Harbour lights go dark</title><meta property="og:type" content="article"></head><body>
            <article><h1 class="entry-title">Harbour lights go dark</h1><audio src="/read.mp3"></audio><p>Notes</p></article></body></html>
            """
        #expect(evidence(inArticle).candidates.first?.namedLikeThePage == false)
        #expect(RouteRules.decide(evidence(inArticle), preference: .auto) == .article(alsoFound: evidence(inArticle).candidates.first))
    }

    @Test func aHostsPlayerIsFollowedOnAnEpisodePostButNotOnAFrontPage() {
        let post = """
            <html><head><title>Ep 8</title></head><body><article><h1>Ep 8</h1>
            <iframe src="https://www.buzzsprout.com/123/456?iframe=true"></iframe><p>Notes</p></article>
            <aside><iframe src="https://html5-player.libsyn.com/embed/episode/id/1/"></iframe></aside></body></html>
            """
        #expect(evidence(post).players.map(\.absoluteString) == ["https://www.buzzsprout.com/123/456?iframe=true"])
        #expect(evidence(post, at: "https://pod.example/").players.isEmpty, "a front page's player is one item of its list")
        let blubrry = """
            <html><head><title>Ep 60</title></head><body><main><iframe src="https://player.blubrry.com/?podcast_id=1&media_url=https%3A%2F%2Fcdn.example%2Fep60.mp3"></iframe></main></body></html>
            """
        let read = evidence(blubrry)
        #expect(read.players.isEmpty)
        #expect(read.candidates.map(\.source) == [.hostPlayer])
        #expect(RouteRules.decide(read, preference: .auto) == .episode(read.candidates[0]))
    }

    @Test func aLibsynDirectDownloadInThePostFooterIsTheEpisode() {
        let html = """
            <html><head><title>Episode 33</title></head><body><div class="libsyn-item"><div class="libsyn-item-body"><p>Notes</p></div>
            <div class="libsyn-item-footer">Direct download: <a href="https://traffic.libsyn.com/show/Episode_33.mp3">Episode_33.mp3</a><br>Category:general</div></div></body></html>
            """
        let read = evidence(html)
        #expect(read.candidates.first?.offeredAsDownload == true && read.candidates.first?.incidental == false)
        guard case .episode = RouteRules.decide(read, preference: .auto) else { Issue.record("not the episode"); return }
    }
}
