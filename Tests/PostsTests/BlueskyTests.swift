import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import Posts

/// Bluesky threads from the model `getPostThread` answers in Fixtures: every embed view kind of
/// the lexicons (a gallery with alt text among them), the author's thread with others' replies
/// mixed in, and the AppView's error answers read for their reason.
@Suite(.ownThread) struct BlueskyTests {
    @Test func everyEmbedKindWithItsAltText() throws {
        let thread = try BlueskyThread.thread([try PostsTests.answer("bluesky-embeds.json")])
        #expect(thread.posts.map(\.plainText) == ["1/ A gallery.", "2/ A video.", "3/ A deleted quote.", "4/ A blocked quote.", "5/ A detached quote.",
                                                  "6/ A feed.", "7/ A list.", "8/ A starter pack.", "9/ A quote with media."],
                "the author's own thread, neither Eve's replies nor the author's answers to her")
        let posts = thread.posts
        #expect(posts[0].images == [Post.Image(source: "https://cdn.bsky.app/img/feed_fullsize/g1", alt: "The mill"),
                                    Post.Image(source: "https://cdn.bsky.app/img/feed_fullsize/g2", alt: "The store"),
                                    Post.Image(source: "https://cdn.bsky.app/img/feed_fullsize/g3", alt: nil)])
        #expect(posts[1].video == Post.Video(poster: "https://video.bsky.app/watch/v1/thumbnail.jpg",
                                             link: "https://bsky.app/profile/ada.bsky.social/post/v1", alt: "The engine turning"))
        #expect(posts[2].quoteNote == "The quoted post was deleted" && posts[2].quote == nil)
        #expect(posts[3].quoteNote == "The quoted post is hidden by a block")
        #expect(posts[4].quoteNote == "The quoted post's author removed this quote")
        #expect(posts[5].card == Post.Card(url: "https://bsky.app/profile/cbabbage.bsky.social/feed/engines", title: "Feed: Engines by @cbabbage.bsky.social",
                                           description: "Posts about engines.", domain: "bsky.app"))
        #expect(posts[6].card?.title == "List: Engine makers by @cbabbage.bsky.social")
        #expect(posts[6].card?.url == "https://bsky.app/profile/cbabbage.bsky.social/lists/makers")
        #expect(posts[7].card?.title == "Starter pack: Analytical people by @cbabbage.bsky.social" && posts[7].card?.description == "Start here.")
        #expect(posts[8].card == Post.Card(url: "https://example.org/sketch", title: "Sketch of the Analytical Engine",
                                           description: "Translated, with notes.", domain: "example.org"))
        let quoted = try #require(posts[8].quote?.post)
        #expect(quoted.plainText == "The engine will compute any table." && quoted.images.map(\.alt) == ["A table"])
        let page = try PostPage(thread)
        for part in ["<figcaption>The mill</figcaption>", "The engine turning", "The quoted post was deleted", "Feed: Engines",
                     "Translated, with notes.", "alt=\"A table\""] {
            #expect(page.html.contains(part), "\(part)")
        }
        #expect(!page.html.contains("Eve") && !page.html.contains("Ada answers"))
    }

    @Test(arguments: [
        (400, #"{"error":"NotFound","message":"Post not found: at://ada.bsky.social/app.bsky.feed.post/p9"}"#, PostFailure.Reason.notFound),
        (400, #"{"error":"InvalidRequest","message":"Unable to resolve handle"}"#, .accountGone),
        (400, #"{"error":"AccountTakedown","message":"Account has been suspended"}"#, .suspended),
        (400, #"{"error":"AccountDeactivated","message":"Account is deactivated"}"#, .accountGone),
        (400, #"{"error":"BlockedByActor"}"#, .blocked),
        (429, #"{"error":"RateLimitExceeded"}"#, .rateLimited),
        (502, #"{"error":"UpstreamFailure"}"#, .siteError),
        (200, #"{"thread": {"$type": "app.bsky.feed.defs#notFoundPost", "uri": "at://x", "notFound": true}}"#, .notFound),
        (200, #"{"thread": {"$type": "app.bsky.feed.defs#blockedPost", "uri": "at://x", "blocked": true, "author": {"did": "did:plc:x"}}}"#, .blocked),
        (200, #"{"thread": {"$type": "app.bsky.feed.defs#threadViewPost", "post": {"uri": "at://x", "record": {"text": ""}}}}"#,
         .unreadable("no \"author\" at thread.post")),
    ])
    func answersThatHoldNoPostAreSaid(_ status: Int, _ body: String, _ reason: PostFailure.Reason) {
        #expect(throws: PostFailure(reason, on: .bluesky)) { try BlueskyThread.thread([PostsTests.answer(status: status, body)]) }
    }
}
