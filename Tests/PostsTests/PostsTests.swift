import Foundation
import HTML
import PiperTestSupport
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
        #expect(thread.posts[3].card == Post.Card(url: "https://t.co/card", title: "Sketch of the Analytical Engine, with notes by the translator"))

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
        ("x-login.html", PostFailure.needsLogin), ("x-error.html", .siteError), ("x-ratelimit.html", .rateLimited),
        ("x-deleted.html", .deleted), ("x-protected.html", .protected), ("x-age.html", .ageRestricted),
    ])
    func xFailurePagesAreSaidEachWithItsSentence(_ name: String, _ failure: PostFailure) throws {
        #expect(throws: failure) { try Self.xThread(name, "https://x.com/ada/status/100") }
        #expect(!failure.description.isEmpty)
        // A page of posts that lacks the one asked for is no post either.
        #expect(throws: PostFailure.noPost) { try Self.xThread("x-thread.html", "https://x.com/ada/status/999") }
    }

    @Test func theLoginWallAsksToConnectX() {
        #expect(PostFailure.needsLogin.description == "Open Piper to connect your X account")
        #expect(PostFailure.needsLogin.isLogin && PostFailure.ageRestricted.isLogin && !PostFailure.deleted.isLogin)
    }

    @Test func aMastodonStatusAndItsAuthorsThread() throws {
        let thread = try MastodonThread.thread(status: try Self.fixture("mastodon-status.json"), context: try Self.fixture("mastodon-context.json"))
        #expect(thread.posts.map(\.url) == ["100", "101", "102", "103"].map { "https://social.example/@ada/\($0)" },
                "the author's own replies in order; not Eve's, nor Ada's answer to Eve")
        let main = try #require(thread.main)
        #expect(main.plainText == "Notes on the engine, a thread.\nIt weaves algebraic patterns.\n\nMore at https://example.org/notes")
        #expect(main.images == [Post.Image(source: "https://files.social.example/engine.png", alt: "A drawing of the difference engine")])
        #expect(main.quote?.post.author.handle == "cbabbage@engine.example")
        #expect(thread.posts[1].video?.poster == "https://files.social.example/run.png")
        #expect(thread.posts[2].card == Post.Card(url: "https://example.org/sketch", title: "Sketch of the Analytical Engine"))
        let page = try PostPage(thread)
        #expect(page.title == "Ada Lovelace (@ada) on Mastodon: Notes on the engine, a thread. It weaves algebraic…")
        #expect(!page.html.contains("Where are the tables") && !page.html.contains("in the appendix"))
        #expect(MastodonThread.statusID(URL(string: "https://social.example/@ada/100")!) == "100")
        #expect(MastodonThread.statusID(URL(string: "https://social.example/about")!) == nil)
    }

    @Test func aBlueskyPostAndItsAuthorsThread() throws {
        let thread = try BlueskyThread.thread(try Self.fixture("bluesky-thread.json"))
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
        #expect(BlueskyThread.atURI(URL(string: "https://bsky.app/profile/ada.bsky.social/post/p1")!) == "at://ada.bsky.social/app.bsky.feed.post/p1")
        #expect(throws: PostFailure.deleted) { try BlueskyThread.thread(Data(#"{"thread": {"$type": "app.bsky.feed.defs#notFoundPost", "notFound": true}}"#.utf8)) }
    }
}
