import Foundation
import PiperTestSupport
import Testing

/// `piper extract` of an X page (the model pages in Tests/PostsTests/Fixtures): the post and its
/// author's thread as the article; X's failure pages each with their sentence and exit status.
@Suite(.ownThread)
struct ExtractPostTests {
    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/PostsTests/Fixtures/\(name)").path
    }

    @Test func anXPageIsExtractedAsItsPost() throws {
        let result = try PiperBinary.run(["extract", "--json", "--base-url", "https://x.com/ada/status/100", Self.fixture("x-thread.html")])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["siteName"] as? String == "X" && json["byline"] as? String == "Ada Lovelace (@ada)")
        #expect(json["publishedTime"] as? String == "2024-03-02T10:00:00.000Z" && json["lang"] as? String == "en")
        let text = try #require(json["textContent"] as? String)
        #expect(text.contains("5/ Thank you for reading.") && !text.contains("Great thread") && !text.contains("Who to follow"))
    }

    /// A mirror front end people read X through is an X host once the config file names it
    /// (`x-hosts`), or `PIPER_X_HOSTS` does (which wins); a bad value is refused with the reason.
    @Test func xHostsInTheConfigFileNameMoreXHosts() throws {
        let home = PiperBinary.freshHome()
        let mirror = ["extract", "--json", "--base-url", "https://nitter.example/ada/status/100", Self.fixture("x-thread.html")]
        let before = try PiperBinary.run(mirror, home: home)
        #expect(!before.stdout.contains("\"siteName\":\"X\""), "not an X host yet: \(before.stdout.prefix(200))")
        let set = try PiperBinary.run(["config", "set", "x-hosts", "Nitter.example, xcancel.com"], home: home)
        #expect(set.status == 0, "\(set.stderr)")
        let after = try PiperBinary.run(mirror, home: home)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any], "\(after.stderr)")
        #expect(json["siteName"] as? String == "X" && (json["textContent"] as? String)?.contains("Great thread") == false)
        let shown = try PiperBinary.run(["config", "--json"], home: home)
        #expect(shown.stdout.contains("\"xHosts\":{\"source\":\"config.json\",\"value\":\"nitter.example,xcancel.com\"}"), "\(shown.stdout)")
        let overridden = try PiperBinary.run(mirror, home: home, environment: ["PIPER_X_HOSTS": "other.example"])
        #expect(!overridden.stdout.contains("\"siteName\":\"X\""), "PIPER_X_HOSTS wins over the file")
        let bad = try PiperBinary.run(["config", "set", "x-hosts", "https://nitter.example/"], home: home)
        #expect(bad.status == 64 && bad.stderr.contains("xHosts takes host names"), "\(bad.stderr)")
    }

    @Test(arguments: [("x-deleted.html", Int32(65), "No such X post: it was deleted, or the link is wrong"),
                      ("x-gone.html", 65, "This X post was deleted"), ("x-protected.html", 65, "protected account"),
                      ("x-tombstone.html", 65, "This X post is from an account that no longer exists"),
                      ("x-suspended.html", 65, "This X post is from a suspended account"),
                      ("x-blocked.html", 65, "This X post is hidden by a block"),
                      ("x-error.html", 69, "Something went wrong"), ("x-ratelimit.html", 69, "limiting requests"),
                      ("x-age.html", 78, "signed-in adults"), ("x-login.html", 1, "Open Piper to connect your X account")])
    func xFailurePagesAreSaid(_ name: String, _ status: Int32, _ words: String) throws {
        let result = try PiperBinary.run(["extract", "--base-url", "https://x.com/ada/status/100", Self.fixture(name)])
        #expect(result.status == status, "\(name): \(result.stderr)")
        #expect(result.stderr.contains(words) && result.stdout.isEmpty, "\(name): \(result.stderr)")
    }
}
