import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// Episode pages as hosts publish them: one page per signal, each with decoys that must lose.
@Suite(.ownThread) struct PageMediaFinderTests {
    let pageURL = URL(string: "https://pod.example/episodes/42")!

    func find(_ html: String, contentType: String? = "text/html; charset=utf-8") -> DiscoveredMedia? {
        PageMediaFinder().findMedia(in: LoadedPage(requestedURL: pageURL, contentType: contentType, body: Data(html.utf8)))
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
        let media = find(html)
        #expect(media?.url.absoluteString == "https://pod.example/media/ep42.m4a")
        #expect(media?.signal.hasPrefix("json-ld") == true)
        #expect(media?.title == "Ep 42")
    }

    @Test func openGraphAudioButNotAnEmbeddedPlayer() {
        let player = """
            <meta property="og:video" content="https://player.example/embed/9"><meta property="og:video:type" content="text/html">
            <meta property="og:audio" content="https://cdn.example/ep.ogg"><meta property="og:title" content="The Episode">
            """
        let media = find("<html><head>\(player)</head><body><p>Notes</p></body></html>")
        #expect(media?.url.absoluteString == "https://cdn.example/ep.ogg")
        #expect(media?.signal == "og:audio")
        #expect(media?.title == "The Episode")
        #expect(find(#"<meta property="og:video" content="https://player.example/embed/9"><meta property="og:video:type" content="text/html">"#) == nil)
    }

    @Test func audioAndVideoElementsSkipPreviewClipsAndImages() {
        let html = """
            <base href="https://files.example/dl/">
            <video autoplay muted loop src="/hero-loop.mp4"></video>
            <img src="pixel.gif" width="1" height="1">
            <video controls><source src="poster.jpg"><source type="video/mp4" src="talk.mp4"></video>
            """
        let media = find(html)
        #expect(media?.url.absoluteString == "https://files.example/dl/talk.mp4")
        #expect(media?.signal == "video source")
    }

    @Test func aDownloadLinkToAMediaFileIsTheLastResort() {
        let html = #"<p><a href="/about">About</a> <a href="/files/book.m4b" download>Download the audiobook</a> <a href="/cover.jpg">cover</a></p>"#
        #expect(find(html)?.url.absoluteString == "https://pod.example/files/book.m4b")
        #expect(find("<p>Just an article with <a href='/other'>a link</a>.</p>") == nil)
        #expect(find("<audio src='x.mp3'>", contentType: "application/json") == nil, "only HTML pages are searched")
    }

    @Test func theOpenGraphFileOutranksJSONLD() {
        let html = """
            <meta property="og:audio" content="https://cdn.example/og.mp3">
            <script type="application/ld+json">{"@type":"AudioObject","contentUrl":"https://cdn.example/ld.mp3"}</script>
            """
        #expect(find(html)?.url.absoluteString == "https://cdn.example/og.mp3")
    }

    @Test func thePagesFeedNamesTheEpisodeWhoseItemLinksHere() {
        let feed = """
            <rss><channel><title>Cast</title>
            <item><title>Other</title><link>https://pod.example/episodes/41</link><enclosure url="https://cdn.example/41.mp3"/></item>
            <item><title>Forty-two</title><link>https://POD.example/episodes/42/</link><enclosure url="https://cdn.example/42.mp3"/></item>
            </channel></rss>
            """
        let finder = PageMediaFinder(fetch: { url in url.path == "/feed.xml" ? Data(feed.utf8) : nil })
        let html = #"<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><p>Notes</p></body></html>"#
        let media = finder.findMedia(in: LoadedPage(requestedURL: pageURL, contentType: "text/html", body: Data(html.utf8)))
        #expect(media?.url.absoluteString == "https://cdn.example/42.mp3")
        #expect(media?.signal == "feed")
        #expect(media?.title == "Forty-two")
    }
}
