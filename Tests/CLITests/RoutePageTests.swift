import Foundation
import PiperTestSupport
import Testing

/// The route each kind of shared page takes through the built `piper share`, against a real
/// `piper serve` and the pages of `RoutePages/` (models of hosts' and sites' page shapes)
/// served over HTTP: an episode page from each host shape lands its file in the library; an
/// article that holds a clip is saved, its clip kept in the reader page, and the CLI says what
/// else it found when that could be wanted.
@Suite(.ownThread, .timeLimit(.minutes(4))) struct RoutePageTests {
    static let pages = PiperBinary.packageRoot.appendingPathComponent("Tests/CLITests/RoutePages")

    /// The pages at their paths, the feed, and the fixture media under `/media/`.
    static func site() throws -> TestHTTPServer {
        func page(_ name: String) throws -> TestHTTPServer.Route {
            .html(try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8))
        }
        let feed = try String(contentsOf: pages.appendingPathComponent("feed.xml"), encoding: .utf8)
        var routes: [String: TestHTTPServer.Route] = [
            "/feed.xml": TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml"], body: feed),
            "/embed/46": .html("<p>player</p>"),
            "/episodes/44": try page("episode-player.html"), "/episodes/45": try page("episode-jsonld.html"),
            "/episodes/46": try page("episode-feed-only.html"), "/show": try page("show-page.html"),
        ]
        for name in ["article-anthem", "article-news-video", "article-product-demo", "article-background-loop", "article-unresolvable-audio"] {
            routes["/\(name)"] = try page("\(name).html")
        }
        let server = try TestHTTPServer(routes: routes)
        let media = AgentLoadTests.fixtures
        for (path, fixture, type) in [("/media/ep44.mp3", "sample.mp3", "audio/mpeg"), ("/media/ep45.m4a", "sample.m4a", "audio/mp4"),
                                      ("/media/ep46.ogg", "sample.ogg", "audio/ogg"), ("/media/storm.mp4", "sample.mp4", "video/mp4"),
                                      ("/media/anthem.ogg", "sample.ogg", "audio/ogg"), ("/media/demo.mp4", "sample.mp4", "video/mp4"),
                                      ("/media/hero.mp4", "sample.mp4", "video/mp4"), ("/media/show-ep1.mp3", "sample.mp3", "audio/mpeg")] {
            try server.route(path, .init(body: [UInt8](try Data(contentsOf: media.appendingPathComponent(fixture))), contentType: type))
        }
        return server
    }

    func share(_ url: URL, home: URL, backend: ShareBackend) throws -> (object: [String: Any], stderr: String) {
        let run = try PiperBinary.run(["share", "--wait", "--json", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                       url.absoluteString], home: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        return (object, run.stderr)
    }

    @Test func anEpisodePageFromEachHostShapeLandsInTheLibrary() throws {
        let server = try Self.site()
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let backend = try ShareBackend(home: home.appendingPathComponent("serve"))
        defer { backend.stop() }
        for (path, file) in [("/episodes/44", "ep44.mp3"), ("/episodes/45", "ep45.m4a"), ("/episodes/46", "ep46.ogg")] {
            let (object, stderr) = try share(server.url(path), home: home, backend: backend)
            #expect(object["route"] as? String == "media", "\(path): \(object) \(stderr)")
            #expect(object["status"] as? String == "imported", "\(path): \(object) \(stderr)")
            #expect(try server.requests("/media/\(file)").count >= 1, "\(path) downloaded \(file)")
        }
        // Only the page that names no file of its own asked its feed.
        #expect(try server.requests("/feed.xml").count == 1)
    }

    @Test func articlesThatHoldAClipAreSavedWithTheClipKept() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let backend = try ShareBackend(home: home.appendingPathComponent("serve"))
        defer { backend.stop() }
        // (page, the clip the reader page keeps, the media the share says it also found)
        let cases: [(String, String?, String?)] = [
            ("/article-anthem", "/media/anthem.ogg", nil),
            ("/article-news-video", "/media/storm.mp4", "/media/storm.mp4"),
            ("/article-product-demo", "/media/demo.mp4", nil),
            ("/article-background-loop", nil, nil),
            ("/show", nil, "/media/show-ep1.mp3"),
            ("/article-unresolvable-audio", nil, nil),
        ]
        for (path, clip, also) in cases {
            let (object, stderr) = try share(server.url(path), home: home, backend: backend)
            #expect(object["route"] as? String == "article", "\(path): \(object) \(stderr)")
            #expect(object["status"] as? String == "saved", "\(path): \(object) \(stderr)")
            #expect(object["alsoFound"] as? String == also.map { server.url($0).absoluteString }, "\(path): \(object)")
            if let clip, let reader = object["url"] as? String {
                let (status, body) = try await httpGet(reader)
                #expect(status == 200)
                #expect(body.contains(server.url(clip).absoluteString), "\(path): the reader page keeps \(clip)")
            }
        }
        #expect(try server.requests().allSatisfy { !$0.path.hasPrefix("/media/") }, "no clip was downloaded or probed")
        #expect(try server.requests("/feed.xml").isEmpty, "no article share asked for the feed")
        // Without --json the outcome names what else the page holds, and the unresolvable audio
        // (it looked like the page's episode) was tried and said, the article saved anyway.
        let plain = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                         server.url("/article-news-video").absoluteString], home: home)
        #expect(plain.stderr.contains("Also found video: storm.mp4 (share with --as media)"), "\(plain.stderr)")
        let unresolvable = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                                server.url("/article-unresolvable-audio").absoluteString], home: home)
        #expect(unresolvable.status == 0)
        #expect(unresolvable.stderr.contains("Could not queue the page's media"), "\(unresolvable.stderr)")
        #expect(unresolvable.stderr.contains("saving the page as an article"), "\(unresolvable.stderr)")
    }
}
