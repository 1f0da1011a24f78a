import Foundation

/// One local server that plays a Mastodon instance, Bluesky (its post pages and AppView) and
/// Reddit, answering with the model answers of Tests/PostsTests/Fixtures; `environment` points
/// piper at it (`PIPER_BLUESKY_HOSTS`, `PIPER_BLUESKY_APPVIEW`, `PIPER_REDDIT_HOSTS`,
/// `PIPER_REDDIT_BASE`). Each network's failures are links of their own.
public struct PostServices {
    public let server: TestHTTPServer
    public var base: String { "http://localhost:\(server.port)" }
    public var environment: [String: String] {
        ["PIPER_BLUESKY_HOSTS": "localhost", "PIPER_BLUESKY_APPVIEW": base, "PIPER_REDDIT_HOSTS": "localhost", "PIPER_REDDIT_BASE": base]
    }

    public static func fixture(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Tests/PostsTests/Fixtures/\(name)"), encoding: .utf8)
    }

    /// A model of Mastodon's web app page for a status: its root element is #mastodon; the post is in the API.
    static let mastodonPage = "<!doctype html><html><head><title>Ada Lovelace: \"Notes\" - Social</title></head><body>"
        + "<div id=\"mastodon\" data-props=\"{}\"></div><noscript>To use the Mastodon web application, please enable JavaScript.</noscript></body></html>"

    public init() throws {
        let routes: [String: TestHTTPServer.Route] = [
            "/@ada/100": .html(Self.mastodonPage),
            "/api/v1/statuses/100": .json(try Self.fixture("mastodon-cw.json")),
            "/api/v1/statuses/100/context": .json(try Self.fixture("mastodon-context.json")),
            "/@ada/404": .html(Self.mastodonPage),
            "/api/v1/statuses/404": .json(#"{"error":"Record not found"}"#, status: 404),
            // Bluesky's post page is its app (a noscript text); the AppView answers the thread.
            "/profile/ada.bsky.social/post/g1": .html("<!doctype html><title>Bluesky</title><div id=\"root\"></div><noscript>This is a heavily interactive web application, and JavaScript is required.</noscript>"),
            "/xrpc/app.bsky.feed.getPostThread": .json(try Self.fixture("bluesky-embeds.json")),
            "/r/engines/comments/abc123/notes_on_the_engine.json": .json(try Self.fixture("reddit-post.json")),
            // A share link redirects to the post, whose page answers a script 403; its JSON answers.
            "/r/engines/s/Xy12Ab": TestHTTPServer.Route(status: 302, headers: ["Location": "/r/engines/comments/abc123/notes_on_the_engine/?share_id=z"]),
            "/r/engines/comments/abc123/notes_on_the_engine/": .html("<html><body>Blocked</body></html>", status: 403),
            "/r/secret/comments/priv1/notes.json": .json(#"{"reason": "private", "message": "Forbidden", "error": 403}"#, status: 403),
        ]
        server = try TestHTTPServer(routes: routes)
    }

    /// A Bluesky link whose AppView answers 400 NotFound: a second server, as the AppView is one address.
    public static func blueskyNotFound() throws -> TestHTTPServer {
        try TestHTTPServer(routes: ["/xrpc/app.bsky.feed.getPostThread": .json(#"{"error":"NotFound","message":"Post not found: at://ada.bsky.social/app.bsky.feed.post/gone"}"#, status: 400)])
    }
}
