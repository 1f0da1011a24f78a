import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// A post shared to `piper serve`: the X model page (Tests/PostsTests/Fixtures, in the shape
/// x.com renders) served from a local name that `PIPER_X_HOSTS` makes an X host; the reader
/// page holds the post, its author's thread and the quote, and none of the replies; X's failure
/// pages are failures with their sentences, nothing saved.
@Suite(.ownThread, .timeLimit(.minutes(4)))
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
        // Loaded as X is: in the server's guarded Chromium (a browser's navigation), not by libcurl.
        #expect(try site.requests("/ada/status/100").contains { $0.header("Sec-Fetch-Mode") == "navigate" }, "the server's browser loaded it")
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
        // The same page shared from the command line to the same server: the same article.
        let cli = try runProcessCapturing(piperExecutable.path, ["share", "--json", "--no-clipboard", "--backend", server.url,
                                                                 "http://localhost:\(site.port)/ada/status/100"],
                                          environment: ProcessInfo.processInfo.environment.merging(
                                              ["PIPER_X_HOSTS": "localhost", "PIPER_HOME": server.home.appendingPathComponent("cli").path]) { $1 })
        #expect(cli.status == 0, "\(cli.stderr)")
        let cliJSON = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any], "\(cli.stdout)")
        let cliReader = try await Client.get(try #require(cliJSON["url"] as? String))
        func article(_ page: String) -> Substring? {
            guard let start = page.range(of: "<article"), let end = page.range(of: "</article>") else { return nil }
            return page[start.lowerBound..<end.upperBound]
        }
        #expect(article(cliReader.text) != nil && article(cliReader.text) == article(reader.text), "piper share saves the same post")
        #expect(cliJSON["title"] as? String == json["title"] as? String)

        let gone = try await server.shareJSON(["url": "http://localhost:\(site.port)/ada/status/404"], headers: try server.bearer)
        #expect(gone.status == 422, "\(gone.text)")
        #expect(try gone.json()["error"] as? String == "No such X post: it was deleted, or the link is wrong")
    }

    /// Each of X's failure pages shared from the phone: its own sentence, in JSON and on the
    /// result page, and nothing saved; the same with the account's cookies connected.
    @Test func xFailurePagesAreSaidOnThePhoneAndNothingIsSaved() async throws {
        let cases: [(String, Int, String)] = [
            ("x-deleted.html", 422, "No such X post"), ("x-protected.html", 422, "protected account"),
            ("x-tombstone.html", 422, "This X post is from an account that no longer exists"),
            ("x-error.html", 503, "Something went wrong"), ("x-ratelimit.html", 503, "limiting requests"),
            ("x-age.html", 409, "signed-in adults"), ("x-login.html", 409, "Piper needs your X account to read X posts"),
        ]
        var routes: [String: TestHTTPServer.Route] = [:]
        for (index, (file, _, _)) in cases.enumerated() {
            routes["/ada/status/\(index)"] = .html(try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8))
        }
        let site = try TestHTTPServer(routes: routes)
        let server = try ShareServer(["--allow-host", "localhost"], environment: ["PIPER_X_HOSTS": "localhost"])
        let (cookie, _) = try await server.pair()
        for connected in [false, true] {
            if connected {
                let future = Int(Date().timeIntervalSince1970) + 86_400
                let text = "# Netscape HTTP Cookie File\n.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tsecret\n"
                    + ".x.com\tTRUE\t/\tTRUE\t\(future)\tct0\tcsrf\n"
                let body = "cookies=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let reply = try await Client.send("POST", server.url + "/connect-x", body: Data(body.utf8),
                                                  headers: ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "same-origin",
                                                            "Content-Type": "application/x-www-form-urlencoded"])
                #expect(reply.status == 200, "\(reply.text)")
            }
            for (index, (file, status, words)) in cases.enumerated() {
                let link = "http://localhost:\(site.port)/ada/status/\(index)"
                let json = try await server.shareJSON(["url": link], headers: try server.bearer)
                #expect(json.status == status, "\(file) (cookies \(connected)): \(json.text)")
                #expect((try json.json()["error"] as? String)?.contains(words) == true, "\(file): \(json.text)")
                #expect(try json.json()["url"] is NSNull, "\(file): nothing saved")
                // The result page once (each share loads the page in the browser again).
                guard !connected else { continue }
                let page = try await Client.send("POST", server.url + "/share", body: Data("url=\(link)".utf8),
                                                 headers: ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "same-origin",
                                                           "Content-Type": "application/x-www-form-urlencoded"])
                #expect(page.text.contains(words), "\(file): the result page says it")
                if file == "x-login.html" {
                    // Someone already in Piper is not told to open it; the way to connect X is linked.
                    #expect(page.text.contains("href=\"/connect-x\"") && !page.text.contains("Open Piper"), "the way to connect X")
                }
            }
        }
        let shares = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer).json()["shares"] as? [[String: Any]] ?? []
        #expect(!shares.isEmpty && shares.allSatisfy { $0["status"] as? String == "failed" }, "nothing was saved")
    }

    /// A Mastodon status on a (local, model) instance: read from the instance's public API,
    /// the author's own thread and nothing of the others'.
    @Test func aMastodonStatusIsReadFromItsInstancesAPI() async throws {
        let status = try String(contentsOf: Self.fixtures.appendingPathComponent("mastodon-status.json"), encoding: .utf8)
        let context = try String(contentsOf: Self.fixtures.appendingPathComponent("mastodon-context.json"), encoding: .utf8)
        let instance = try TestHTTPServer(routes: [
            // A model of the web app's status page: its root element is #mastodon; the post is in the API.
            "/@ada/100": .html("<!doctype html><html><head><title>Ada Lovelace: \"Notes\" - Social</title></head><body><div id=\"mastodon\" data-props=\"{}\"></div><noscript>To use the Mastodon web application, please enable JavaScript.</noscript></body></html>"),
            "/api/v1/statuses/100": .json(status),
            "/api/v1/statuses/100/context": .json(context),
        ])
        let server = try ShareServer(["--allow-host", "localhost"])
        let reply = try await server.shareJSON(["url": "http://localhost:\(instance.port)/@ada/100"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
        #expect((try reply.json()["title"] as? String)?.hasPrefix("Ada Lovelace (@ada@social.example) on Mastodon: Notes on the engine") == true, "\(reply.text)")
        let reader = try await Client.get(try #require(try reply.json()["url"] as? String))
        #expect(reader.text.contains("4/ Thank you for reading.") && reader.text.contains("The engine will compute any table."))
        #expect(!reader.text.contains("Where are the tables") && !reader.text.contains("in the appendix"))
        #expect(try instance.requests("/api/v1/statuses/100/context").count == 1)
    }

    /// A Bluesky post: the AppView's getPostThread (here a local model AppView, named by
    /// PIPER_BLUESKY_APPVIEW, and a local name for bsky.app by PIPER_BLUESKY_HOSTS).
    @Test func aBlueskyPostIsReadFromTheAppView() async throws {
        let thread = try String(contentsOf: Self.fixtures.appendingPathComponent("bluesky-thread.json"), encoding: .utf8)
        let appView = try TestHTTPServer(routes: [
            "/profile/ada.bsky.social/post/p1": .html("<!doctype html><title>Bluesky</title><div id=\"root\"></div>"),
            "/xrpc/app.bsky.feed.getPostThread": .json(thread),
        ])
        let base = "http://localhost:\(appView.port)"
        let server = try ShareServer(["--allow-host", "localhost"],
                                     environment: ["PIPER_BLUESKY_HOSTS": "localhost", "PIPER_BLUESKY_APPVIEW": base])
        let reply = try await server.shareJSON(["url": "\(base)/profile/ada.bsky.social/post/p1"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
        let reader = try await Client.get(try #require(try reply.json()["url"] as? String))
        #expect(reader.text.contains("3/ Thank you for reading.") && !reader.text.contains("Lovely!"))
        let asked = try #require(try appView.requests("/xrpc/app.bsky.feed.getPostThread").first?.path)
        #expect(asked.contains("uri=at%3A%2F%2Fada%2Ebsky%2Esocial%2Fapp%2Ebsky%2Efeed%2Epost%2Fp1") || asked.contains("uri=at"), "\(asked)")
    }

    /// A post of each network shared from the phone against the local model services: read from
    /// the network's API through the server's guarded client (a Reddit share link followed to its
    /// post's JSON); each network's not-found answer is its own sentence, 422, nothing saved.
    @Test func eachNetworksPostAndFailureOnThePhone() async throws {
        let services = try PostServices()
        let appView = try PostServices.blueskyNotFound()
        defer { services.server.stop(); appView.stop() }
        let server = try ShareServer(["--allow-host", "localhost"], environment: services.environment)
        let reddit = try await server.shareJSON(["url": services.base + "/r/engines/s/Xy12Ab"], headers: try server.bearer)
        #expect(reddit.status == 200, "\(reddit.text)")
        #expect(try reddit.json()["title"] as? String == "Notes on the engine, a thread : r/engines")
        let reader = try await Client.get(try #require(try reddit.json()["url"] as? String))
        #expect(reader.text.contains("Update: Charles answered.") && !reader.text.contains("Lovely"))
        let skeet = try await server.shareJSON(["url": services.base + "/profile/ada.bsky.social/post/g1"], headers: try server.bearer)
        #expect(skeet.status == 200, "\(skeet.text)")
        let skeetReader = try await Client.get(try #require(try skeet.json()["url"] as? String))
        #expect(skeetReader.text.contains("The mill") && skeetReader.text.contains("Feed: Engines"), "the gallery's alt and the feed card")

        let failures = [(services.base + "/@ada/404", "No such Mastodon post: it was deleted, or the link is wrong"),
                        (services.base + "/r/secret/comments/priv1/notes/", "This Reddit post is in a private community; only its members can see it")]
        for (link, sentence) in failures {
            let reply = try await server.shareJSON(["url": link], headers: try server.bearer)
            #expect(reply.status == 422, "\(link): \(reply.text)")
            let json = try reply.json()
            #expect(json["error"] as? String == sentence && json["url"] is NSNull, "\(reply.text)")
        }
        var gone = services.environment
        gone["PIPER_BLUESKY_APPVIEW"] = "http://localhost:\(appView.port)"
        let other = try ShareServer(["--allow-host", "localhost"], environment: gone)
        let missing = try await other.shareJSON(["url": services.base + "/profile/ada.bsky.social/post/gone"], headers: try other.bearer)
        let said = try missing.json()["error"] as? String
        #expect(missing.status == 422 && said == "No such Bluesky post: it was deleted, or the link is wrong", "\(missing.text)")
    }
}
