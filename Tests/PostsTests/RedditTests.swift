import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import Posts

/// Reddit posts from the model JSON in Fixtures: title, text, link, pictures and gallery with
/// captions, the author's own chain of follow-up comments (never others'), and removed,
/// deleted, private, quarantined and banned posts each with their reason.
@Suite(.ownThread) struct RedditTests {
    static let post = PostSource(network: .reddit, url: URL(string: "https://www.reddit.com/r/engines/comments/abc123/notes_on_the_engine/")!)

    static func thread(_ answers: [LoadedPage], source: PostSource = post) throws -> PostThread {
        try RedditThread.thread(FetchedPost(source: source, answers: answers))
    }

    @Test func aTextPostAndItsAuthorsFollowUps() throws {
        let thread = try Self.thread([try PostsTests.answer("reddit-post.json")])
        #expect(thread.posts.map(\.plainText) == ["It weaves algebraic patterns.\n\nMore at https://example.org/notes",
                                                  "Edit: the full notes are in the appendix.", "Update: Charles answered.",
                                                  "Last update: the engine runs."],
                "the author's chain under the post; not Eve's comments, nor the author's answer to Eve")
        let main = try #require(thread.main)
        #expect(main.title == "Notes on the engine, a thread" && main.community == "r/engines")
        #expect(main.author == Post.Author(name: "u/ada_l", handle: "ada_l", url: "https://www.reddit.com/user/ada_l"))
        #expect(main.url == "https://www.reddit.com/r/engines/comments/abc123/notes_on_the_engine/")
        #expect(main.published == "2024-03-02T10:00:00Z")
        #expect(main.text.contains(.link(text: "https://example.org/notes", url: "https://example.org/notes")))
        let page = try PostPage(thread)
        #expect(page.title == "Notes on the engine, a thread : r/engines")
        #expect(page.byline == "u/ada_l" && page.siteName == "Reddit")
        #expect(page.html.contains("2 March 2024, 10:00 UTC") && page.html.contains(" in r/engines"))
        for absent in ["Lovely", "In the appendix.", "Thanks!"] { #expect(!page.html.contains(absent), "\(absent)") }
    }

    @Test func aGalleryWithItsCaptions() throws {
        let thread = try Self.thread([try PostsTests.answer("reddit-gallery.json")])
        #expect(thread.main?.images == [Post.Image(source: "https://preview.redd.it/m1.jpg?width=1600&format=pjpg&auto=webp&s=b", alt: "The mill, from above"),
                                        Post.Image(source: "https://i.redd.it/m2.gif", alt: nil)], "the failed picture is left out")
        #expect(thread.main?.card == nil)
        #expect(try PostPage(thread).html.contains("<figcaption>The mill, from above</figcaption>"))
    }

    @Test func aLinkPostIsItsCard() throws {
        let thread = try Self.thread([try PostsTests.answer("reddit-link.json")])
        #expect(thread.main?.card == Post.Card(url: "https://example.org/sketch", title: nil, domain: "example.org"))
        #expect(try PostPage(thread).title == "Sketch of the Analytical Engine : r/engines")
    }

    static func withPost(_ change: (inout [String: Any]) -> Void) throws -> LoadedPage {
        var listings = try #require(try JSONSerialization.jsonObject(with: try PostsTests.fixture("reddit-post.json")) as? [[String: Any]])
        var listing = try #require(listings[0]["data"] as? [String: Any])
        var children = try #require(listing["children"] as? [[String: Any]])
        var data = try #require(children[0]["data"] as? [String: Any])
        change(&data)
        children[0]["data"] = data
        listing["children"] = children
        listings[0]["data"] = listing
        return PostsTests.answer(status: 200, String(decoding: try JSONSerialization.data(withJSONObject: listings), as: UTF8.self))
    }

    @Test(arguments: [
        ("moderator", PostFailure.Reason.removed(by: "by the community's moderators")), ("deleted", .deleted),
        ("reddit", .removed(by: "by Reddit")), ("copyright_takedown", .removed(by: "by Reddit after a copyright notice")),
        ("automod_filtered", .removed(by: "by the community's automatic filter")),
    ])
    func removedPostsAreSaid(_ category: String, _ reason: PostFailure.Reason) throws {
        let answer = try Self.withPost { $0["removed_by_category"] = category; $0["selftext"] = "[removed]" }
        #expect(throws: PostFailure(reason, on: .reddit)) { try Self.thread([answer]) }
    }

    @Test func aPostItsAuthorDeletedIsSaid() throws {
        let answer = try Self.withPost { $0["author"] = "[deleted]"; $0["selftext"] = "[deleted]"; $0["selftext_html"] = NSNull() }
        #expect(throws: PostFailure(.deleted, on: .reddit)) { try Self.thread([answer]) }
        #expect(PostFailure(.deleted, on: .reddit).description == "This Reddit post was deleted")
    }

    @Test(arguments: [
        (403, #"{"reason": "private", "message": "Forbidden", "error": 403}"#, PostFailure.Reason.privateCommunity),
        (403, #"{"reason": "quarantined", "quarantine_message": "This community is quarantined.", "message": "Forbidden", "error": 403}"#, .quarantined),
        (404, #"{"reason": "banned", "message": "Not Found", "error": 404}"#, .banned),
        (404, #"{"message": "Not Found", "error": 404}"#, .notFound),
        (429, #"{"message": "Too Many Requests", "error": 429}"#, .rateLimited),
        (200, #"[{"kind": "Listing", "data": {"after": null}}]"#, .unreadable("no \"children\" at [0].data")),
        (200, #"[{"kind": "Listing", "data": {"children": []}}]"#, .unreadable("no post (\"t3\") in the first listing")),
    ])
    func errorAnswersAreReadForTheirReason(_ status: Int, _ body: String, _ reason: PostFailure.Reason) {
        #expect(throws: PostFailure(reason, on: .reddit)) { try Self.thread([PostsTests.answer(status: status, body)]) }
    }

    @Test func aShareLinkThatLedToNoPostIsNotFound() throws {
        let share = PostSource(network: .reddit, url: URL(string: "https://www.reddit.com/r/engines/s/Xy12Ab")!)
        #expect(throws: PostFailure(.notFound, on: .reddit)) { try Self.thread([PostsTests.answer(status: 200, "<html>")], source: share) }
        let followed = try Self.thread([PostsTests.answer(status: 403, "<html>"), try PostsTests.answer("reddit-post.json")], source: share)
        #expect(followed.main?.title == "Notes on the engine, a thread")
    }
}
