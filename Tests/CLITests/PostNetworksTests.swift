import Foundation
import PiperTestSupport
import Testing

/// `piper extract URL` and `piper share` of Mastodon, Bluesky and Reddit posts against a local
/// model of each service (`PostServices`): the post, its author's thread and nothing of the
/// others', as the share reads it; each network's failures with their sentence and exit status,
/// nothing saved.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct PostNetworksTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    @Test func extractReadsEachNetworksPosts() throws {
        let services = try PostServices()
        defer { services.server.stop() }
        let mastodon = try PiperBinary.run(["extract", "--json", "\(services.base)/@ada/100"], environment: services.environment)
        #expect(mastodon.status == 0, "\(mastodon.stderr)")
        let toot = try Self.json(mastodon.stdout)
        #expect(toot["siteName"] as? String == "Mastodon" && toot["title"] as? String == "Ada Lovelace (@ada@social.example) on Mastodon: Engine spoilers")
        let tootText = try #require(toot["textContent"] as? String)
        #expect(tootText.contains("Content warning: Engine spoilers") && tootText.contains("4/ Thank you for reading."))
        #expect(!tootText.contains("RE:") && !tootText.contains("Where are the tables") && !tootText.contains("2024-03-02T"))

        let bluesky = try PiperBinary.run(["extract", "--json", "\(services.base)/profile/ada.bsky.social/post/g1"], environment: services.environment)
        #expect(bluesky.status == 0, "\(bluesky.stderr)")
        let skeet = try Self.json(bluesky.stdout)
        #expect(skeet["siteName"] as? String == "Bluesky" && skeet["byline"] as? String == "Ada Lovelace (@ada.bsky.social)")
        let skeetHTML = try #require(skeet["content"] as? String)
        #expect(skeetHTML.contains("<figcaption>The mill</figcaption>") && skeetHTML.contains("9/ A quote with media."))
        #expect(!skeetHTML.contains("heavily interactive") && !skeetHTML.contains("Eve"))

        for link in ["/r/engines/comments/abc123/notes_on_the_engine/", "/r/engines/s/Xy12Ab"] {
            let reddit = try PiperBinary.run(["extract", "--json", services.base + link], environment: services.environment)
            #expect(reddit.status == 0, "\(link): \(reddit.stderr)")
            let post = try Self.json(reddit.stdout)
            #expect(post["title"] as? String == "Notes on the engine, a thread : r/engines" && post["siteName"] as? String == "Reddit")
            let text = try #require(post["textContent"] as? String)
            #expect(text.contains("Last update: the engine runs.") && !text.contains("Lovely") && !text.contains("In the appendix."), "\(link)")
        }
        #expect(try services.server.requests("/r/engines/comments/abc123/notes_on_the_engine.json").allSatisfy { $0.path.hasSuffix("?raw_json=1") })
    }

    @Test func extractSaysEachNetworksFailures() throws {
        let services = try PostServices()
        let appView = try PostServices.blueskyNotFound()
        defer { services.server.stop(); appView.stop() }
        var gone = services.environment
        gone["PIPER_BLUESKY_APPVIEW"] = "http://localhost:\(appView.port)"
        let cases: [(String, [String: String], String)] = [
            ("/@ada/404", services.environment, "No such Mastodon post: it was deleted, or the link is wrong"),
            ("/profile/ada.bsky.social/post/gone", gone, "No such Bluesky post: it was deleted, or the link is wrong"),
            ("/r/secret/comments/priv1/notes/", services.environment, "This Reddit post is in a private community; only its members can see it"),
        ]
        for (link, environment, sentence) in cases {
            let result = try PiperBinary.run(["extract", services.base + link], environment: environment)
            #expect(result.status == 65 && result.stdout.isEmpty, "\(link): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(sentence) && !result.stderr.contains("HTTP 4"), "\(link): \(result.stderr)")
        }
    }

    /// `piper share` to a running `piper serve`: each network's post saved as the post; a
    /// failure saves nothing and exits with its status.
    @Test func shareSavesEachNetworksPostAndNothingOnFailure() async throws {
        let services = try PostServices()
        let home = try makeShareTempDir()
        let backend = try ShareBackend(home: home.appendingPathComponent("serve"))
        defer { services.server.stop(); backend.stop() }
        let expected = [("/@ada/100", "4/ Thank you for reading."), ("/profile/ada.bsky.social/post/g1", "9/ A quote with media."),
                        ("/r/engines/s/Xy12Ab", "Last update: the engine runs.")]
        for (link, words) in expected {
            let result = try PiperBinary.run(["share", "--json", "--no-clipboard", "--backend", backend.baseURL, services.base + link],
                                             home: home.appendingPathComponent("cli"), environment: services.environment)
            #expect(result.status == 0, "\(link): \(result.stderr)")
            let saved = try #require(try Self.json(result.stdout)["url"] as? String, "\(result.stdout)")
            let reader = try await httpGet(saved)
            #expect(reader.body.contains(words) && !reader.body.contains("Eve"), "\(link)")
        }
        let failed = try PiperBinary.run(["share", "--json", "--no-clipboard", "--backend", backend.baseURL, services.base + "/@ada/404"],
                                         home: home.appendingPathComponent("cli"), environment: services.environment)
        #expect(failed.status == 65, "\(failed.stderr)")
        #expect(failed.stdout.contains("No such Mastodon post") && !failed.stdout.contains("\"url\":\"http"), "\(failed.stdout)")
    }
}
