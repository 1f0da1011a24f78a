import Foundation
import PiperCore
import PiperNet
import Testing
@testable import PiperServer

/// Declared path parameters (`RoutePattern`) and what the route table tells the HTTP server
/// from a request's head: which body streams, which answer comes later.
@Suite(.ownThread)
struct RoutePatternTests {
    @Test func aPatternMatchesOneSegmentPerParameterAndTheRestForTheLast() {
        let retry: RoutePattern = "/shares/:id/retry"
        #expect(retry.match("/shares/abc/retry") == ["id": "abc"])
        #expect(retry.match("/shares//retry") == nil, "a parameter is never empty")
        #expect(retry.match("/shares/abc") == nil && retry.match("/shares/abc/retry/more") == nil)
        #expect(retry.match("/shares/abc/again") == nil)

        let media: RoutePattern = "/media/:id/:part"
        #expect(media.match("/media/0011/cover.jpg") == ["id": "0011", "part": "cover.jpg"])
        #expect(media.match("/media/0011/") == nil && media.match("/media/0011") == nil)

        let feed: RoutePattern = "/feed/:feed..."
        #expect(feed.match("/feed/s3cret.xml") == ["feed": "s3cret.xml"])
        #expect(feed.match("/feed/s3cret/Show/Season 1.xml") == ["feed": "s3cret/Show/Season 1.xml"])
        #expect(feed.match("/feed/") == nil && feed.match("/feeds/x") == nil)
    }

    static func table() throws -> RouteTable {
        let home = try freshDirectory("route-plan")
        let state = StateFolder(url: home)
        var configuration = BackendConfiguration()
        configuration.share = ShareServices(cookies: FileCookieStore(state: state), httpLoader: HTTPPageLoader(), browserLoader: nil,
                                            extractor: ReadabilityExtractor(), media: nil, jobs: nil,
                                            fetchGuard: FetchGuard(policy: FetchPolicy()), state: state)
        let auth = try ShareAuth(registry: DeviceRegistry(state: state), publicURL: LateValue(), baseURL: LateValue(), trustedProxies: [])
        return Backend.routes(store: MemoryStore(), configuration: configuration, publicURL: LateValue(), auth: auth)
    }

    @Test func theTableSaysWhichBodyStreamsAndWhichAnswerComesLater() throws {
        let table = try Self.table()
        #expect(table.streamsBody(.post, path: "/share"), "the upload streams")
        #expect(!table.streamsBody(.post, path: "/save") && !table.streamsBody(.get, path: "/share") && !table.streamsBody(.post, path: "/follows/x"))
        #expect(table.answersLater(.post, path: "/save") && table.answersLater(.post, path: "/share"))
        #expect(table.answersLater(.post, path: "/shares/abc/retry"))
        #expect(!table.answersLater(.post, path: "/pair") && !table.answersLater(.get, path: "/healthz"))
        #expect(!table.answersLater(HTTPMethod(rawValue: "BREW"), path: "/save"), "an unknown method is answered at once (405)")
    }

    @Test func handlersGetTheirParametersAndUnknownMethodsTheir405() throws {
        let table = try Self.table()
        let feed = try table.dispatch(HTTPRequest(method: .get, path: "/feed/s3cret/Show.xml"))
        #expect(feed.1.parameters == ["feed": "s3cret/Show.xml"])
        let unknown = HTTPRequest(method: "BREW", path: "/healthz")
        #expect(throws: HTTPError.methodNotAllowed(["GET", "HEAD"])) { try table.dispatch(unknown) }
        #expect(throws: HTTPError.notFound) { try table.dispatch(HTTPRequest(method: .get, path: "/media/")) }
    }
}
