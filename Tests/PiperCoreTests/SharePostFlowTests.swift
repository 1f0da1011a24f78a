import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The share's post step: one rule (`PostLinks`) says which links are posts, and the flow
/// fetches each post's thread through the share's own client (`PageLoader.loadAnswer`, faked
/// here) before the extractor reads it; X's post is its loaded page.
@Suite(.ownThread) struct SharePostFlowTests {
    static let links = PostLinks(blueskyAppView: "https://appview.example", redditBase: "https://www.reddit.com")

    func options() -> ShareFlow.Options {
        var options = ShareFlow.Options()
        options.posts = Self.links
        return options
    }

    @Test func theRuleSaysWhichLinksArePostsFromTheLinkAlone() throws {
        let links = PostLinks(xHosts: ["nitter.example"], redditHosts: ["reddit.local"])
        func network(_ link: String) -> PostNetwork? { links.post(at: URL(string: link)!)?.network }
        #expect(network("https://x.com/ada/status/1") == .x && network("https://mobile.twitter.com/ada/status/1") == .x)
        #expect(network("https://nitter.example/ada/status/1") == .x)
        #expect(network("https://bsky.app/profile/ada.bsky.social/post/3k") == .bluesky)
        #expect(network("https://bsky.app/profile/ada.bsky.social") == nil, "a profile is no post")
        for link in ["https://www.reddit.com/r/engines/comments/abc123/notes_on_the_engine/", "https://old.reddit.com/r/engines/comments/abc123",
                     "https://reddit.com/comments/abc123", "https://redd.it/abc123", "https://www.reddit.com/r/engines/s/Xy12Ab",
                     "http://reddit.local/r/engines/comments/abc123/x/"] {
            #expect(network(link) == .reddit, "\(link)")
        }
        for link in ["https://www.reddit.com/r/engines/", "https://www.reddit.com/user/ada", "https://notreddit.com/r/a/comments/b",
                     "https://example.com/@ada/100", "https://social.example/@ada/100"] {
            #expect(network(link) == nil, "\(link)")
        }
    }

    @Test func mastodonIsKnownByItsPage() {
        let status = URL(string: "https://social.example/@ada/100")!
        let app = LoadedPage(requestedURL: status, body: Data("<div id=\"mastodon\" data-props=\"{}\"></div>".utf8))
        #expect(PostLinks().post(in: app)?.network == .mastodon)
        #expect(PostLinks().post(in: LoadedPage(requestedURL: status, body: Data("<p>A blog</p>".utf8))) == nil)
        #expect(PostLinks().post(in: LoadedPage(requestedURL: URL(string: "https://social.example/about")!, body: app.body)) == nil)
    }

    @Test func eachNetworksCallsComeFromTheRule() throws {
        func page(_ url: String, status: Int = 200, final: String? = nil) -> LoadedPage {
            LoadedPage(requestedURL: URL(string: url)!, finalURL: final.flatMap(URL.init(string:)), statusCode: status, body: Data())
        }
        let mastodon = PostSource(network: .mastodon, url: URL(string: "https://social.example:8443/@ada/100")!)
        #expect(mastodon.nextCall(after: [])?.absoluteString == "https://social.example:8443/api/v1/statuses/100")
        #expect(mastodon.nextCall(after: [page("https://s/1")])?.absoluteString == "https://social.example:8443/api/v1/statuses/100/context")
        #expect(mastodon.nextCall(after: [page("https://s/1", status: 404)]) == nil, "an error answer ends the calls")
        let bluesky = try #require(Self.links.post(at: URL(string: "https://bsky.app/profile/ada.bsky.social/post/p1")!))
        #expect(bluesky.nextCall(after: [])?.absoluteString
                == "https://appview.example/xrpc/app.bsky.feed.getPostThread?uri=at%3A%2F%2Fada%2Ebsky%2Esocial%2Fapp%2Ebsky%2Efeed%2Epost%2Fp1&depth=20&parentHeight=0")
        let reddit = try #require(Self.links.post(at: URL(string: "https://old.reddit.com/r/engines/comments/abc123/notes/")!))
        #expect(reddit.nextCall(after: [])?.absoluteString == "https://www.reddit.com/r/engines/comments/abc123/notes.json?raw_json=1")
        let short = try #require(Self.links.post(at: URL(string: "https://redd.it/abc123")!))
        #expect(short.nextCall(after: [])?.absoluteString == "https://www.reddit.com/comments/abc123.json?raw_json=1")
        let share = try #require(Self.links.post(at: URL(string: "https://www.reddit.com/r/engines/s/Xy12Ab")!))
        #expect(share.nextCall(after: [])?.absoluteString == "https://www.reddit.com/r/engines/s/Xy12Ab")
        // The share link's page may answer 403 to a script; its redirect is what was asked for.
        let followed = page("https://www.reddit.com/r/engines/s/Xy12Ab", status: 403, final: "https://www.reddit.com/r/engines/comments/abc123/notes/?share_id=1")
        #expect(share.nextCall(after: [followed])?.absoluteString == "https://www.reddit.com/r/engines/comments/abc123/notes.json?raw_json=1")
        #expect(share.nextCall(after: [page("https://www.reddit.com/r/engines/s/Xy12Ab", final: "https://www.reddit.com/login")]) == nil)
    }

    @Test func aBlueskyPostIsReadFromItsAPIWithoutLoadingThePage() {
        var world = FakeWorld()
        let call = "https://appview.example/xrpc/app.bsky.feed.getPostThread?uri=at%3A%2F%2Fada%2Ebsky%2Esocial%2Fapp%2Ebsky%2Efeed%2Epost%2Fp1&depth=20&parentHeight=0"
        world.http.answers[call] = (200, "{}", nil)
        let result = world.run(["https://bsky.app/profile/ada.bsky.social/post/p1"], options())
        #expect(result.category == nil, "\(result)")
        #expect(world.calls == ["answer \(call)", "post Bluesky 200", "save A post on Bluesky", "copy http://127.0.0.1:9/3f1c2a9e-0000-4000-8000-000000000001"])
    }

    @Test func aMastodonPageIsLoadedThenItsStatusAndContextAsked() {
        var world = FakeWorld()
        world.http.html = "<div id=\"mastodon\"></div>"
        world.http.answers["https://social.example/api/v1/statuses/100"] = (200, "{}", nil)
        world.http.answers["https://social.example/api/v1/statuses/100/context"] = (200, "{}", nil)
        #expect(world.run(["https://social.example/@ada/100"], options()).category == nil)
        #expect(world.calls.prefix(4) == ["load http https://social.example/@ada/100 cookies=", "answer https://social.example/api/v1/statuses/100",
                                          "answer https://social.example/api/v1/statuses/100/context", "post Mastodon 200,200"],
                "no parse, route or readerable check: a post is read as a post")
    }

    @Test func anErrorAnswerIsHandedToTheReaderNotTurnedIntoAnHTTPError() {
        var world = FakeWorld()
        world.http.html = "<div id=\"mastodon\"></div>"
        _ = world.run(["https://social.example/@ada/404"], options())
        #expect(world.calls == ["load http https://social.example/@ada/404 cookies=", "answer https://social.example/api/v1/statuses/404",
                                "post Mastodon 404", "save A post on Mastodon", "copy http://127.0.0.1:9/3f1c2a9e-0000-4000-8000-000000000001"])
    }

    @Test func aRedditShareLinkIsFollowedToItsPostsJSON() {
        var world = FakeWorld()
        world.http.answers["https://www.reddit.com/r/engines/s/Xy12Ab"] = (200, "<html>", "https://www.reddit.com/r/engines/comments/abc123/notes/")
        world.http.answers["https://www.reddit.com/r/engines/comments/abc123/notes.json?raw_json=1"] = (200, "[]", nil)
        #expect(world.run(["https://www.reddit.com/r/engines/s/Xy12Ab"], options()).category == nil)
        #expect(world.calls.prefix(3) == ["answer https://www.reddit.com/r/engines/s/Xy12Ab",
                                          "answer https://www.reddit.com/r/engines/comments/abc123/notes.json?raw_json=1", "post Reddit 200,200"])
    }

    @Test func anXPostIsItsLoadedPage() {
        var world = FakeWorld()
        world.cookies.jar = .success(xJar())
        #expect(world.run(["https://x.com/ada/status/1"], options()).category == nil)
        #expect(world.calls.prefix(2) == ["load browser https://x.com/ada/status/1 cookies=auth_token", "post X 200"])
    }

    @Test func anAPIThatCannotBeReachedFailsTheShare() {
        var world = FakeWorld()
        world.http.error = .unreachable(URL(string: "https://appview.example")!, "Could not resolve host")
        let result = world.run(["https://bsky.app/profile/ada.bsky.social/post/p1"], options())
        #expect(result.message.hasPrefix("Cannot reach https://appview.example") && result.category == .unavailable)
        #expect(!world.calls.contains { $0.hasPrefix("save") })
    }
}
