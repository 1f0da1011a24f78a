import Foundation
import Testing
@testable import PiperCore

/// The follow's schedule and the feed fields it reads (RSS and Atom shapes as publishers and
/// podcast hosts write them).
@Suite(.ownThread) struct FollowScheduleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func hourlyWithJitterTheFeedsOwnWaitWhenLongerAndBackoff() {
        let schedule = FollowSchedule()
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 0, random: 0.5) == now.addingTimeInterval(3600))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 0, random: 0) == now.addingTimeInterval(3240))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 0, random: 1) == now.addingTimeInterval(3960))
        #expect(schedule.nextCheck(after: now, feedInterval: 600, failures: 0, random: 0.5) == now.addingTimeInterval(3600), "a shorter ttl is not obeyed")
        #expect(schedule.nextCheck(after: now, feedInterval: 86_400, failures: 0, random: 0.5) == now.addingTimeInterval(86_400))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 1, random: 0.5) == now.addingTimeInterval(900))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 3, random: 0.5) == now.addingTimeInterval(3600))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 40, random: 0.5) == now.addingTimeInterval(86_400))
        #expect(schedule.nextCheck(after: now, feedInterval: nil, failures: 1, retryAfter: 7200, random: 0.5) == now.addingTimeInterval(7200))
    }

    @Test func feedDatesInTheFormsFeedsUse() {
        let expected = Date(timeIntervalSince1970: 1_796_367_600)   // 2026-12-04 07:00:00 UTC
        for text in ["Fri, 04 Dec 2026 07:00:00 GMT", "Fri, 04 Dec 2026 07:00:00 +0000", "04 Dec 2026 08:00:00 +0100",
                     "Fri, 4 Dec 2026 07:00 GMT", "2026-12-04T07:00:00Z", "2026-12-04T02:00:00-05:00", "2026-12-04T07:00:00.000Z"] {
            #expect(FeedDate.parse(text) == expected, "\(text)")
        }
        #expect(FeedDate.parse("next Tuesday") == nil)
    }

    @Test func aFeedsGUIDsDatesTTLAndNewAddress() throws {
        let rss = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title><ttl>120</ttl>
            <itunes:new-feed-url>https://new.example/feed.xml</itunes:new-feed-url>
            <item><title>One</title><guid isPermaLink="false">abc-1</guid><pubDate>Fri, 04 Dec 2026 07:00:00 GMT</pubDate>
            <enclosure url="https://cdn.example/1.mp3" type="audio/mpeg"/></item></channel></rss>
            """
        let feed = try Playlist.parse(Data(rss.utf8), kind: .feed, base: URL(string: "https://old.example/feed.xml")!)
        #expect(feed.checkInterval == 7200)
        #expect(feed.newFeedURL == URL(string: "https://new.example/feed.xml"))
        #expect(feed.entries.first?.guid == "abc-1")
        #expect(feed.entries.first?.published == Date(timeIntervalSince1970: 1_796_367_600))

        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><title>Atom Show</title>
            <sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>
            <entry><title>A</title><id>urn:uuid:1</id><published>2026-12-04T07:00:00Z</published>
            <link rel="enclosure" href="https://cdn.example/a.m4a" type="audio/mp4"/></entry></feed>
            """
        let parsed = try Playlist.parse(Data(atom.utf8), kind: .feed, base: URL(string: "https://a.example/feed")!)
        #expect(parsed.checkInterval == 43_200)
        #expect(parsed.entries.first?.guid == "urn:uuid:1")
        #expect(parsed.entries.first?.published == Date(timeIntervalSince1970: 1_796_367_600))
    }

    @Test func aPageNamesItsFeeds() {
        let html = """
            <html><head><link rel="stylesheet" href="/s.css"><link rel="alternate" type="application/rss+xml" title="Podcast" href="/feed/podcast">
            <link rel="alternate" type="application/atom+xml" href="https://a.example/atom.xml"><link rel="alternate" hreflang="de" href="/de"></head></html>
            """
        #expect(Playlist.feedLinks(inPage: html, base: URL(string: "https://a.example/show/ep-1")!)
                == [URL(string: "https://a.example/feed/podcast")!, URL(string: "https://a.example/atom.xml")!])
    }
}
