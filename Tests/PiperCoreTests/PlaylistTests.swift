import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The playlist and feed readers, on the formats as players and podcast hosts write them.
@Suite(.ownThread) struct PlaylistTests {
    let base = URL(string: "https://files.example/books/book.m3u")!

    @Test func m3uKeepsOrderTitlesAndResolvesRelativeEntries() throws {
        let text = """
            #EXTM3U
            #PLAYLIST:The Two-Part Book
            #EXTINF:301,Narrator - Part One
            part1.mp3
            # a comment

            #EXTINF:299,Narrator - Part Two
            https://cdn.example/part2.mp3
            ftp://old.example/part3.mp3
            """
        let playlist = try Playlist.parse(Data(text.utf8), kind: .m3u, base: base)
        #expect(playlist.title == "The Two-Part Book")
        #expect(playlist.entries == [
            Playlist.Entry(url: URL(string: "https://files.example/books/part1.mp3")!, title: "Narrator - Part One"),
            Playlist.Entry(url: URL(string: "https://cdn.example/part2.mp3")!, title: "Narrator - Part Two"),
        ], "ftp is not followed")
    }

    @Test func anHLSMediaPlaylistIsRefusedWithItsReason() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nseg0.ts\n"
        #expect(throws: Playlist.ParseError.hlsStream) { try Playlist.parse(Data(text.utf8), kind: .m3u, base: base) }
    }

    @Test func plsIsReadByNumber() throws {
        let text = "[playlist]\nFile2=b.ogg\nTitle2=Second\nFile1=a.ogg\nTitle1=First\nNumberOfEntries=2\nVersion=2\n"
        let playlist = try Playlist.parse(Data(text.utf8), kind: .pls, base: base)
        #expect(playlist.entries.map(\.url.lastPathComponent) == ["a.ogg", "b.ogg"])
        #expect(playlist.entries.map(\.title) == ["First", "Second"])
    }

    @Test func rssEnclosuresNewestFirstWithTheLimit() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>Piper &amp; Friends</title><link>https://pod.example/</link>
            <item><title><![CDATA[Episode 3: <Late>]]></title><link>https://pod.example/3</link>
              <enclosure url="https://pod.example/ep3.mp3?a=1&amp;b=2" length="100" type="audio/mpeg"/></item>
            <item><title>Episode 2</title><enclosure type="audio/mpeg" url='/ep2.mp3' length="100" /></item>
            <item><title>Episode 1 (no audio)</title></item>
            <item><title>Episode 0</title><itunes:image href="x.jpg"/><enclosure url="https://pod.example/ep0.m4a"/></item>
            </channel></rss>
            """
        let feed = try Playlist.parse(Data(text.utf8), kind: .feed, base: URL(string: "https://pod.example/feed.xml")!)
        #expect(feed.title == "Piper & Friends")
        #expect(feed.entries.map(\.url.absoluteString) == ["https://pod.example/ep3.mp3?a=1&b=2", "https://pod.example/ep2.mp3", "https://pod.example/ep0.m4a"])
        #expect(feed.entries.first?.title == "Episode 3: <Late>")
        let newest = try Playlist.parse(Data(text.utf8), kind: .feed, base: URL(string: "https://pod.example/feed.xml")!, limit: 2)
        #expect(newest.entries.count == 2)
    }

    @Test func atomEnclosureLinks() throws {
        let text = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Cast</title>
            <entry><title>One</title><link rel="alternate" href="https://a.example/1"/><link rel="enclosure" type="audio/ogg" href="https://a.example/1.ogg"/></entry>
            </feed>
            """
        let feed = try Playlist.parse(Data(text.utf8), kind: .feed, base: URL(string: "https://a.example/atom")!)
        #expect(feed.title == "Atom Cast")
        #expect(feed.entries == [Playlist.Entry(url: URL(string: "https://a.example/1.ogg")!, title: "One", page: URL(string: "https://a.example/1")!)])
    }

    @Test func kindsByExtensionAndContentType() {
        let page = URL(string: "https://h.example/list")!
        #expect(Playlist.kind(of: URL(string: "https://h.example/a.M3U8")!, contentType: nil) == .m3u)
        #expect(Playlist.kind(of: page, contentType: "audio/x-scpls") == .pls)
        #expect(Playlist.kind(of: page, contentType: "application/rss+xml; charset=utf-8") == .feed)
        #expect(Playlist.kind(of: page, contentType: "text/html") == nil)
        #expect(throws: Playlist.ParseError.empty(.feed)) {
            try Playlist.parse(Data("<rss><channel><title>x</title></channel></rss>".utf8), kind: .feed, base: page)
        }
    }
}
