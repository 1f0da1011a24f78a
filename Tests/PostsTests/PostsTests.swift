import Foundation
import HTML
import PiperTestSupport
import PiperCore
import Testing
@testable import Posts

/// Posts from the model pages and API answers in Fixtures (see its README): the post, its
/// author's thread and nothing else, with its pictures, video, card and quote; X's failure
/// pages each with their own sentence.
@Suite(.ownThread) struct PostsTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil), "no fixture \(name)")
        return try Data(contentsOf: url)
    }

    /// A fixture as an API's answer: status 200 unless given.
    static func answer(_ name: String, status: Int = 200) throws -> LoadedPage {
        LoadedPage(requestedURL: URL(string: "https://api.example/\(name)")!, statusCode: status, contentType: "application/json", body: try fixture(name))
    }

    /// An API's answer written out: a status and its body.
    static func answer(status: Int, _ body: String) -> LoadedPage {
        LoadedPage(requestedURL: URL(string: "https://api.example/answer")!, statusCode: status, contentType: "application/json", body: Data(body.utf8))
    }

    static func xThread(_ name: String, _ url: String) throws -> PostThread {
        let document = Document.parse(bytes: Array(try fixture(name)))
        return try XPage.thread(document, url: try #require(URL(string: url)))
    }

    @Test func anXThreadIsThePostAndItsAuthorsThreadOnly() throws {
        let thread = try Self.xThread("x-thread.html", "https://x.com/ada/status/100")
        #expect(thread.posts.map(\.url) == (100...104).map { "https://x.com/ada/status/\($0)" })
        #expect(thread.posts.allSatisfy { $0.author.handle == "ada" && $0.author.name == "Ada Lovelace" })
        let main = try #require(thread.main)
        #expect(main.published == "2024-03-02T10:00:00.000Z")
        #expect(main.plainText == "Notes on the engine, a thread.\nIt weaves algebraic patterns 🧵 just as the loom weaves flowers.\n\nMore at example.org/notes")
        #expect(main.text.contains(.link(text: "example.org/notes", url: "https://t.co/abc")))
        #expect(main.images == [Post.Image(source: "https://pbs.twimg.com/media/engine1.jpg?format=jpg&name=small", alt: "A drawing of the difference engine, side view"),
                                Post.Image(source: "https://pbs.twimg.com/media/engine2.jpg?format=jpg&name=small", alt: nil)])
        let quoted = try #require(thread.posts[1].quote?.post)
        #expect(quoted.author == Post.Author(name: "Charles Babbage", handle: "cbabbage", url: "https://x.com/cbabbage"))
        #expect(quoted.url == "https://x.com/cbabbage/status/90" && quoted.plainText == "The engine will compute any table.")
        #expect(quoted.images.map(\.alt) == ["The analytical engine's mill"])
        #expect(thread.posts[1].plainText == "2/ Charles said it best:", "the quote's text is the quote's, not the post's")
        #expect(thread.posts[1].images.isEmpty)
        #expect(thread.posts[2].video == Post.Video(poster: "https://pbs.twimg.com/ext_tw_video_thumb/300/pu/img/poster.jpg",
                                                     link: "https://x.com/ada/status/102"))
        #expect(thread.posts[3].card == Post.Card(url: "https://t.co/card", title: "Sketch of the Analytical Engine, with notes by the translator",
                                                 domain: "example.org"))

        let page = try PostPage(thread)
        #expect(page.title == "Ada Lovelace (@ada) on X: Notes on the engine, a thread. It weaves algebraic patterns…")
        #expect(page.byline == "Ada Lovelace (@ada)" && page.siteName == "X" && page.canonicalURL == "https://x.com/ada/status/100")
        #expect(page.html.contains("<p>Notes on the engine, a thread.<br>\nIt weaves algebraic patterns 🧵 just as the loom weaves flowers.</p>"))
        #expect(page.html.contains("<figcaption>A drawing of the difference engine, side view</figcaption>"))
        #expect(page.html.contains("<blockquote cite=\"https://x.com/cbabbage/status/90\">"))
        #expect(page.html.contains("Watch the video") && page.html.contains("Sketch of the Analytical Engine, with notes by the translator"))
        for absent in ["Great thread", "Not convinced", "in the appendix", "Who to follow", "Promoted", "Trending", "Post your reply", "Sign up"] {
            #expect(!page.html.contains(absent), "\(absent) is not part of the post")
        }
    }

    @Test func aReplyIsItselfNotItsParentsThread() throws {
        let thread = try Self.xThread("x-single.html", "https://x.com/ada/status/51")
        #expect(thread.posts.map(\.plainText) == ["A machine for patterns."], "neither the post it answers nor the answer to it")
    }

    @Test(arguments: [
        ("x-login.html", PostFailure.Reason.needsLogin), ("x-error.html", .siteError), ("x-ratelimit.html", .rateLimited),
        ("x-deleted.html", .notFound), ("x-gone.html", .deleted), ("x-protected.html", .protected), ("x-age.html", .ageRestricted),
        ("x-tombstone.html", .accountGone), ("x-suspended.html", .suspended), ("x-blocked.html", .blocked),
    ])
    func xFailurePagesAreSaidEachWithItsSentence(_ name: String, _ reason: PostFailure.Reason) throws {
        #expect(throws: PostFailure(reason, on: .x)) { try Self.xThread(name, "https://x.com/ada/status/100") }
        // A page of posts that lacks the one asked for is no post either.
        #expect(throws: PostFailure(.noPost, on: .x)) { try Self.xThread("x-thread.html", "https://x.com/ada/status/999") }
    }

    @Test func eachFailureHasItsOwnSentenceNamingItsNetwork() {
        let reasons: [PostFailure.Reason] = [.siteError, .rateLimited, .deleted, .notFound, .blocked, .suspended, .protected, .accountGone,
                                             .removed(by: "by Reddit"), .privateCommunity, .quarantined, .banned, .noPost, .unreadable("no \"id\"")]
        for network in [PostNetwork.mastodon, .bluesky, .reddit] {
            let sentences = reasons.map { PostFailure($0, on: network).description }
            #expect(Set(sentences).count == reasons.count, "one sentence per reason on \(network)")
            #expect(sentences.allSatisfy { $0.contains(network.rawValue) && !$0.contains("X ") }, "\(sentences)")
        }
        #expect(PostFailure(.accountGone, on: .x).description == "This X post is from an account that no longer exists")
        #expect(PostFailure(.deleted, on: .x).category == .badData && PostFailure(.rateLimited, on: .reddit).category == .unavailable)
    }

    @Test func theLoginWallAsksToConnectX() {
        #expect(PostFailure(.needsLogin, on: .x).description == "Open Piper to connect your X account")
        #expect(PostFailure(.needsLogin, on: .x).isLogin && PostFailure(.ageRestricted, on: .x).isLogin && !PostFailure(.deleted, on: .x).isLogin)
        #expect(PostFailure(.needsLogin, on: .mastodon).description == "Mastodon shows this post only to signed-in users")
    }

    /// Each card layout X renders gives the card's title, description and domain (the small
    /// layout's title is not its longest line, which is the description).
    @Test func xLinkCardsOnEveryLayout() throws {
        let thread = try Self.xThread("x-cards.html", "https://x.com/ada/status/200")
        #expect(thread.posts.map(\.url) == ["200", "201"].map { "https://x.com/ada/status/\($0)" }, "Eve's reply ends the thread")
        #expect(thread.posts[0].card == Post.Card(url: "https://t.co/small", title: "The Analytical Engine",
                                                  description: "A description of the engine, longer than its title, as small cards show it under the title.",
                                                  domain: "example.org"))
        #expect(thread.posts[1].card == Post.Card(url: "https://t.co/large", title: "Notes by the translator",
                                                  description: "What the engine can and cannot do, in seven notes.", domain: "engine.example"))
        let overlay = try Self.xThread("x-cards.html", "https://x.com/ada/status/202")
        #expect(overlay.posts.map(\.url) == ["202", "203"].map { "https://x.com/ada/status/\($0)" })
        #expect(overlay.posts[0].card == Post.Card(url: "https://t.co/overlay", title: "The Jacquard loom and its cards", domain: "loom.example"))
        #expect(overlay.posts[1].card == Post.Card(url: "https://t.co/label", title: "Tables of Bernoulli numbers", domain: "tables.example"))
        let page = try PostPage(thread)
        #expect(page.html.contains("<p class=\"post-card\"><a href=\"https://t.co/small\">The Analytical Engine</a><br>\nA description of the engine"))
        #expect(page.html.contains("<small>example.org</small>"))
    }

    @Test func datesAreShownAsDatesEachPostItsOwn() throws {
        let page = try PostPage(try Self.xThread("x-thread.html", "https://x.com/ada/status/100"))
        #expect(page.html.contains("<p class=\"post-header\"><strong><a href=\"https://x.com/ada\">Ada Lovelace</a></strong> (@ada) · "
                                   + "<a href=\"https://x.com/ada/status/100\"><time datetime=\"2024-03-02T10:00:00.000Z\">2 March 2024, 10:00 UTC</time></a></p>"))
        #expect(page.html.contains("<time datetime=\"2024-03-02T10:04:00.000Z\">2 March 2024, 10:04 UTC</time>"))
        #expect(!page.html.contains(">2024-03-02T"), "no ISO text shown")
        #expect(PostDate.shown("2024-11-23T18:01:30.000Z") == "23 November 2024, 18:01 UTC")
        #expect(PostDate.shown("2024-02-29T23:30:00-02:00") == "1 March 2024, 01:30 UTC")
        #expect(PostDate.shown("2024-01-01T00:30:00+01:00") == "31 December 2023, 23:30 UTC")
        #expect(PostDate.shown("yesterday") == nil)
        #expect(PostDate.iso(1709373600) == "2024-03-02T10:00:00Z")
    }

    @Test func aMastodonStatusAndItsAuthorsThread() throws {
        let thread = try MastodonThread.thread([Self.answer("mastodon-status.json"), Self.answer("mastodon-context.json")])
        #expect(thread.posts.map(\.url) == ["100", "101", "102", "103"].map { "https://social.example/@ada/\($0)" },
                "the author's own replies in order; not Eve's, nor Ada's answer to Eve")
        let main = try #require(thread.main)
        #expect(main.plainText == "Notes on the engine, a thread.\nIt weaves algebraic patterns.\n\nMore at https://example.org/notes")
        #expect(main.images == [Post.Image(source: "https://files.social.example/engine.png", alt: "A drawing of the difference engine")])
        #expect(main.quote?.post.author.handle == "cbabbage@engine.example")
        #expect(main.author.handle == "ada@social.example", "instance-qualified, as Mastodon's pages show it")
        #expect(thread.posts[1].video?.poster == "https://files.social.example/run.png")
        #expect(thread.posts[2].card == Post.Card(url: "https://example.org/sketch", title: "Sketch of the Analytical Engine", domain: "example.org"))
        let page = try PostPage(thread)
        #expect(page.title == "Ada Lovelace (@ada@social.example) on Mastodon: Notes on the engine, a thread. It weaves algebraic…")
        #expect(!page.html.contains("Where are the tables") && !page.html.contains("in the appendix"))
        #expect(PostLinks.mastodonStatusID(URL(string: "https://social.example/@ada/100")!) == "100")
        #expect(PostLinks.mastodonStatusID(URL(string: "https://social.example/about")!) == nil)
    }

    @Test func aBlueskyPostAndItsAuthorsThread() throws {
        let thread = try BlueskyThread.thread([Self.answer("bluesky-thread.json")])
        #expect(thread.posts.map(\.url) == ["p1", "p2", "p3"].map { "https://bsky.app/profile/ada.bsky.social/post/\($0)" })
        let main = try #require(thread.main)
        #expect(main.text == [.text("Notes on the engine 🧵\nMore at "), .link(text: "example.org/notes", url: "https://example.org/notes")],
                "the facet's byte range, past a four-byte emoji")
        #expect(main.images.map(\.alt) == ["A drawing of the difference engine"])
        #expect(main.quote?.post.plainText == "The engine will compute any table.")
        #expect(thread.posts[1].card?.title == "Sketch of the Analytical Engine")
        let page = try PostPage(thread)
        #expect(page.siteName == "Bluesky" && page.byline == "Ada Lovelace (@ada.bsky.social)")
        #expect(!page.html.contains("Lovely") && !page.html.contains("Where are the tables"))
        #expect(PostLinks.atURI(URL(string: "https://bsky.app/profile/ada.bsky.social/post/p1")!) == "at://ada.bsky.social/app.bsky.feed.post/p1")
    }
}
