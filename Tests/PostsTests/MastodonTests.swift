import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import Posts

/// Mastodon statuses from the model answers in Fixtures (the documented Status and Context
/// entities): a content warning before the text and in the title, a quote's fallback hidden,
/// instance-qualified handles, dates as dates, and each error answer read for its reason.
@Suite(.ownThread) struct MastodonTests {
    static func thread(_ status: LoadedPage, context: LoadedPage? = nil) throws -> PostThread {
        try MastodonThread.thread([status] + (context.map { [$0] } ?? []))
    }

    @Test func aContentWarningComesBeforeTheTextAndTitlesThePost() throws {
        let thread = try Self.thread(try PostsTests.answer("mastodon-cw.json"), context: try PostsTests.answer("mastodon-context.json"))
        let main = try #require(thread.main)
        #expect(main.contentWarning == "Engine spoilers")
        #expect(main.plainText == "It computes the Bernoulli numbers, #engines.", "the quote-inline fallback is hidden")
        #expect(main.quote?.post.url == "https://engine.example/@cbabbage/90")
        #expect(main.card == Post.Card(url: "https://example.org/bernoulli", title: "Note G", description: "The first program, in a table.",
                                       domain: "example.org"))
        let page = try PostPage(thread)
        #expect(page.title == "Ada Lovelace (@ada@social.example) on Mastodon: Engine spoilers", "Mastodon titles a post by its warning")
        #expect(!page.title.contains("RE:") && !page.html.contains("RE:"))
        let warning = try #require(page.html.range(of: "<p class=\"post-warning\"><strong>Content warning:</strong> Engine spoilers</p>"))
        let text = try #require(page.html.range(of: "It computes the Bernoulli numbers"))
        #expect(warning.upperBound < text.lowerBound, "the warning is shown before the text it covers")
        #expect(page.html.contains("(@ada@social.example)") && page.html.contains("(@cbabbage@engine.example)"))
        #expect(page.html.contains("<time datetime=\"2024-03-02T10:03:00.000Z\">2 March 2024, 10:03 UTC</time>"))
        #expect(!page.html.contains(">2024-03-02T"))
    }

    @Test(arguments: [
        (404, #"{"error":"Record not found"}"#, PostFailure.Reason.notFound),
        (410, #"{"error":"Gone"}"#, .deleted),
        (401, #"{"error":"This API requires an authenticated user"}"#, .needsLogin),
        (403, #"{"error":"This action is not allowed"}"#, .blocked),
        (429, #"{"error":"Too many requests"}"#, .rateLimited),
        (503, "<html>Service unavailable</html>", .siteError),
    ])
    func errorAnswersAreReadForTheirReason(_ status: Int, _ body: String, _ reason: PostFailure.Reason) {
        #expect(throws: PostFailure(reason, on: .mastodon)) { try Self.thread(PostsTests.answer(status: status, body)) }
    }

    @Test func aSuspendedAuthorIsSaid() throws {
        var status = try #require(try JSONSerialization.jsonObject(with: try PostsTests.fixture("mastodon-status.json")) as? [String: Any])
        var account = try #require(status["account"] as? [String: Any])
        account["suspended"] = true
        status["account"] = account
        let answer = PostsTests.answer(status: 200, String(decoding: try JSONSerialization.data(withJSONObject: status), as: UTF8.self))
        #expect(throws: PostFailure(.suspended, on: .mastodon)) { try Self.thread(answer) }
    }

    /// A renamed field is named, not read as nothing.
    @Test func aChangedShapeNamesWhatIsMissing() throws {
        let text = String(decoding: try PostsTests.fixture("mastodon-status.json"), as: UTF8.self)
            .replacingOccurrences(of: "\"account\"", with: "\"author\"")
        #expect(throws: PostFailure(.unreadable("no \"account\""), on: .mastodon)) { try Self.thread(PostsTests.answer(status: 200, text)) }
        let context = #"{"ancestors": [], "descendants": [{"id": "101", "uri": "u", "content": "", "media_attachments": []}]}"#
        #expect(throws: PostFailure(.unreadable("no \"account\" at descendants[0]"), on: .mastodon)) {
            try Self.thread(try PostsTests.answer("mastodon-status.json"), context: PostsTests.answer(status: 200, context))
        }
        #expect(PostFailure(.unreadable("no \"account\""), on: .mastodon).description
                == "Mastodon's answer is not in the shape Piper reads (no \"account\"); Piper needs an update for it")
    }
}
