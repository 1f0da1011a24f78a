import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// The route evidence a page gives, read from the share's one parse of it, and the route it
/// decides: episode pages as hosts publish them (each with decoys that must lose), and
/// articles that merely hold a clip.
@Suite(.ownThread) struct PageMediaFinderTests {
    let pageURL = URL(string: "https://pod.example/episodes/42")!

    func parsed(_ html: String, contentType: String? = "text/html; charset=utf-8") -> ParsedPage {
        ReadabilityExtractor().parse(LoadedPage(requestedURL: pageURL, contentType: contentType, body: Data(html.utf8)))
    }

    func evidence(_ html: String, contentType: String? = "text/html; charset=utf-8", finder: PageMediaFinder = PageMediaFinder()) -> RouteEvidence {
        finder.evidence(in: parsed(html, contentType: contentType))
    }

    func decide(_ html: String) -> RouteDecision {
        RouteRules.decide(evidence(html), preference: .auto)
    }

    @Test func jsonLDContentURLNamesTheFileWhenOpenGraphAndPlayersDoNot() {
        let html = """
            <html><head><title>Ep 42</title>
            <meta property="og:video" content="https://player.example/embed/42"><meta property="og:video:type" content="text/html">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"WebPage","url":"https://pod.example/episodes/42"},
              {"@type":"PodcastEpisode","name":"Ep 42","associatedMedia":{"@type":"MediaObject","contentUrl":"/media/ep42.m4a"}}]}</script>
            </head><body><video autoplay muted loop src="/teaser.mp4"></video></body></html>
            """
        let read = evidence(html)
        #expect(read.declaresEpisode)
        #expect(read.title == "Ep 42")
        guard case .episode(let media) = RouteRules.decide(read, preference: .auto) else { Issue.record("not an episode"); return }
        #expect(media.url.absoluteString == "https://pod.example/media/ep42.m4a")
        #expect(media.signal.hasPrefix("json-ld"))
        #expect(media.namedLikeThePage, "the file's episode is named as the page is")
    }

    @Test func openGraphAudioButNotAnEmbeddedPlayer() {
        let player = """
            <meta property="og:video" content="https://player.example/embed/9"><meta property="og:video:type" content="text/html">
            <meta property="og:audio" content="https://cdn.example/ep.ogg"><meta property="og:title" content="The Episode">
            """
        let read = evidence("<html><head>\(player)</head><body><p>Notes</p></body></html>")
        #expect(read.candidates.map(\.url.absoluteString) == ["https://cdn.example/ep.ogg"])
        #expect(read.title == "The Episode")
        #expect(RouteRules.decide(read, preference: .auto) == .episode(read.candidates[0]))
        #expect(decide(#"<meta property="og:video" content="https://player.example/embed/9"><meta property="og:video:type" content="text/html">"#)
                == .article(alsoFound: nil))
    }

    @Test func audioAndVideoElementsSkipPreviewClipsAndImages() {
        let html = """
            <base href="https://files.example/dl/">
            <video autoplay muted loop src="/hero-loop.mp4"></video>
            <img src="pixel.gif" width="1" height="1">
            <video controls><source src="poster.jpg"><source type="video/mp4" src="talk.mp4"></video>
            """
        let read = evidence(html)
        #expect(read.candidates.map(\.url.absoluteString) == ["https://files.example/hero-loop.mp4", "https://files.example/dl/talk.mp4"])
        #expect(read.candidates.map(\.preview) == [true, false])
        // A player in a page that says nothing of itself: the episode only if the page is too
        // short to be an article.
        #expect(RouteRules.decide(read, preference: .auto) == .articleUnlessTooShort(read.candidates[1]))
        #expect(read.candidates[1].signal == "video source")
    }

    @Test func aDownloadLinkToAMediaFileIsTheLastResort() {
        let html = #"<p><a href="/about">About</a> <a href="/files/book.m4b" download>Download the audiobook</a> <a href="/cover.jpg">cover</a></p>"#
        #expect(evidence(html).candidates.map(\.url.absoluteString) == ["https://pod.example/files/book.m4b"])
        #expect(decide("<p>Just an article with <a href='/other'>a link</a>.</p>") == .article(alsoFound: nil))
        #expect(evidence("<audio src='x.mp3'>", contentType: "application/json").candidates.isEmpty, "only HTML pages are read")
    }

    @Test func theOpenGraphFileOutranksJSONLD() {
        let html = """
            <meta property="og:audio" content="https://cdn.example/og.mp3">
            <script type="application/ld+json">{"@type":"AudioObject","contentUrl":"https://cdn.example/ld.mp3"}</script>
            """
        #expect(evidence(html).candidates.first?.url.absoluteString == "https://cdn.example/og.mp3")
    }

    /// Feeds are fetched only for a page that declares an episode and names no file; the item
    /// whose link is this page names the episode.
    @Test func thePagesFeedNamesTheEpisodeWhoseItemLinksHere() {
        let feed = """
            <rss><channel><title>Cast</title>
            <item><title>Other</title><link>https://pod.example/episodes/41</link><enclosure url="https://cdn.example/41.mp3"/></item>
            <item><title>Forty-two</title><link>https://POD.example/episodes/42/</link><enclosure url="https://cdn.example/42.mp3"/></item>
            </channel></rss>
            """
        let fetched = Fetched()
        let finder = PageMediaFinder(fetch: { url in fetched.add(url.path); return url.path == "/feed.xml" ? Data(feed.utf8) : nil })
        let article = #"<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><p>Notes</p></body></html>"#
        #expect(RouteRules.decide(finder.evidence(in: parsed(article)), preference: .auto) == .article(alsoFound: nil))
        #expect(fetched.paths.isEmpty, "reading a page fetches nothing")

        let episode = """
            <html><head><title>Forty-two</title><link rel="alternate" type="application/rss+xml" href="/feed.xml">
            <script type="application/ld+json">{"@type":"PodcastEpisode","name":"Forty-two","url":"https://pod.example/episodes/42"}</script>
            </head><body><p>Notes</p></body></html>
            """
        let page = parsed(episode)
        let read = finder.evidence(in: page)
        #expect(RouteRules.decide(read, preference: .auto) == .lookUp(EpisodeLookup(feeds: [URL(string: "https://pod.example/feed.xml")!]), otherwise: .article(alsoFound: nil)))
        let media = finder.searchFeeds(read.feeds, for: page)
        #expect(media?.url.absoluteString == "https://cdn.example/42.mp3")
        #expect(media?.signal == "feed")
        #expect(media?.title == "Forty-two")
        #expect(fetched.paths == ["/feed.xml"])
    }

    // Articles that hold media: the clip stays in the article, the article is saved.

    @Test func anEncyclopediaArticleWithItsAnthemIsAnArticle() {
        let html = """
            <html><head><title>Freedonia - Encyclopedia</title></head><body><main><h1>Freedonia</h1>
            <p>Freedonia is a country.</p>
            <figure><audio controls data-durationhint="62"><source src="//upload.example/Freedonia_anthem.ogg" type="audio/ogg"></audio>
            <figcaption>National anthem</figcaption></figure></main></body></html>
            """
        let read = evidence(html)
        #expect(read.candidates.first?.duration == 62)
        #expect(RouteRules.decide(read, preference: .auto) == .article(alsoFound: nil), "a 62-second clip is not an episode")
        #expect(RouteRules.decide(read, preference: .media) == .episode(read.candidates[0]), "--as media still takes it")
    }

    @Test func aNewsArticleWithAVideoIsAnArticleThatMentionsIt() {
        let html = """
            <html><head><meta property="og:type" content="article"><title>Storm hits the coast</title></head>
            <body><article><h1>Storm hits the coast</h1><video controls src="/video/storm.mp4"></video><p>The storm…</p></article></body></html>
            """
        let read = evidence(html)
        #expect(read.declaresArticle)
        #expect(RouteRules.decide(read, preference: .auto) == .article(alsoFound: read.candidates[0]))
    }

    @Test func aProductPagesDemoVideoIsAClip() {
        let html = """
            <html><head><title>Kettle 3000</title>
            <script type="application/ld+json">{"@type":"Product","name":"Kettle 3000",
              "subjectOf":{"@type":"VideoObject","name":"Kettle 3000 demo","contentUrl":"https://shop.example/demo.mp4","duration":"PT1M15S"}}</script>
            </head><body><video controls src="https://shop.example/demo.mp4" data-duration="75"></video></body></html>
            """
        let read = evidence(html)
        #expect(!read.declaresEpisode, "a VideoObject inside a Product is not the page's subject")
        #expect(read.candidates.allSatisfy { RouteRules.isClip($0) })
        #expect(RouteRules.decide(read, preference: .auto) == .article(alsoFound: nil))
    }

    @Test func mediaBesideTheMainContentIsIncidental() {
        let html = """
            <html><body><main><p>An essay.</p></main>
            <aside><audio controls src="/promo/listen.mp3"></audio></aside>
            <div class="sidebar-widget"><a href="/promo/ep1.mp3">Our podcast</a></div>
            <footer><a href="/files/jingle.mp3">Jingle</a></footer></body></html>
            """
        let read = evidence(html)
        #expect(read.candidates.count == 3)
        #expect(read.candidates.allSatisfy { $0.incidental })
        #expect(RouteRules.decide(read, preference: .auto) == .article(alsoFound: nil))
    }

    @Test func aListOfEpisodesIsNotOneEpisode() {
        let items = (1...8).map { "<li><a href=\"/ep\($0).mp3\">Episode \($0)</a></li>" }.joined()
        let read = evidence("<html><head><title>The best podcasts of the year</title></head><body><ol>\(items)</ol></body></html>")
        #expect(read.candidates.count == 8)
        #expect(RouteRules.decide(read, preference: .auto) == .article(alsoFound: read.candidates[0]))
    }

    @Test func aPlayerNamedAsThePageIsTheEpisode() {
        let html = """
            <html><head><title>Ep 7: Night trains | The Rail Show</title></head><body>
            <h1>Ep 7: Night trains</h1><audio controls title="Ep 7: Night trains" src="/audio/ep7.mp3"></audio>
            <p>Show notes.</p></body></html>
            """
        let read = evidence(html)
        #expect(read.candidates.first?.namedLikeThePage == true)
        #expect(RouteRules.decide(read, preference: .auto) == .episode(read.candidates[0]))
    }

    @Test func isoDurations() {
        #expect(MediaEvidence.seconds(iso8601: "PT1M2S") == 62)
        #expect(MediaEvidence.seconds(iso8601: "PT1H") == 3600)
        #expect(MediaEvidence.seconds(iso8601: "P0DT0H0M30.5S") == 30.5)
        #expect(MediaEvidence.seconds(iso8601: "P1M") == nil, "a month has no fixed length")
        #expect(MediaEvidence.seconds(iso8601: "PT") == nil)
        #expect(MediaEvidence.seconds(iso8601: "75") == 75)
    }
}

/// The feed paths a finder fetched, from its fetch threads.
private final class Fetched: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ path: String) { lock.lock(); list.append(path); lock.unlock() }
    var paths: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
