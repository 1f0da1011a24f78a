import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// A post shared to `piper serve`: the X model page (Tests/PostsTests/Fixtures, in the shape
/// x.com renders) served from a local name that `PIPER_X_HOSTS` makes an X host; the reader
/// page holds the post, its author's thread and the quote, and none of the replies; X's failure
/// pages are failures with their sentences, nothing saved.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct SharePostTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/PostsTests/Fixtures")

    @Test func anXPostIsSavedAsThePostAndItsThreadOnly() async throws {
        let page = try String(contentsOf: Self.fixtures.appendingPathComponent("x-thread.html"), encoding: .utf8)
        let deleted = try String(contentsOf: Self.fixtures.appendingPathComponent("x-deleted.html"), encoding: .utf8)
        let site = try TestHTTPServer(routes: ["/ada/status/100": .html(page), "/ada/status/404": .html(deleted)])
        let server = try ShareServer(["--allow-host", "localhost"], environment: ["PIPER_X_HOSTS": "localhost"])
        let reply = try await server.shareJSON(["url": "http://localhost:\(site.port)/ada/status/100"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
        let json = try reply.json()
        #expect(json["title"] as? String == "Ada Lovelace (@ada) on X: Notes on the engine, a thread. It weaves algebraic patterns…")
        let reader = try await Client.get(try #require(json["url"] as? String))
        #expect(reader.status == 200)
        for part in ["Notes on the engine, a thread.", "2/ Charles said it best:", "The engine will compute any table.", "3/ Here it is running.",
                     "Sketch of the Analytical Engine, with notes by the translator", "5/ Thank you for reading.",
                     "A drawing of the difference engine, side view"] {
            #expect(reader.text.contains(part), "the reader page holds \(part)")
        }
        for absent in ["Great thread", "Not convinced", "in the appendix", "Who to follow", "Post your reply"] {
            #expect(!reader.text.contains(absent), "\(absent) is not part of the post")
        }
        let gone = try await server.shareJSON(["url": "http://localhost:\(site.port)/ada/status/404"], headers: try server.bearer)
        #expect(gone.status == 422, "\(gone.text)")
        #expect(try gone.json()["error"] as? String == "This post was deleted, or the link is wrong")
    }
}
