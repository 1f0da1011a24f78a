import Foundation
import PiperTestSupport
import Testing

/// `piper follow`, `follows`, `follows refresh`, `unfollow` and the OPML round trip, through the
/// built binary against a local feed server. The exported list is read back with Debian's
/// python3-listparser (the OPML reader podcast tools use).
@Suite(.ownThread) struct FollowCommandTests {
    static func feed(_ title: String, _ files: [String]) -> TestHTTPServer.Route {
        let items = files.enumerated().map { index, file in
            "<item><title>\(title) \(index)</title><guid>\(title)-\(file)</guid><pubDate>Sun, 0\(8 - index) Nov 2026 07:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(file)\" type=\"audio/mpeg\"/></item>"
        }.joined()
        var route = TestHTTPServer.Route(headers: ["Content-Type": "application/rss+xml", "ETag": "\"\(title)\""],
                                         body: "<rss version=\"2.0\"><channel><title>\(title)</title>\(items)</channel></rss>")
        route.conditional = true
        return route
    }

    @Test func followListRefreshUnfollowAndOPMLBothWays() throws {
        let server = try TestHTTPServer(routes: ["/a.xml": Self.feed("Show A", ["sample.mp3", "sample.m4a"]),
                                                 "/b.xml": Self.feed("Show B", ["sample.flac"]),
                                                 "/plain": .html("<html><body><p>No feed here.</p></body></html>")],
                                        staticRoot: AgentLoadTests.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let a = server.url("/a.xml").absoluteString, b = server.url("/b.xml").absoluteString

        let followed = try PiperBinary.run(["follow", "--newest", "1", a], home: home)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout == a + "\n")
        #expect(followed.stderr.contains("Following Show A into Show A: 1 episode downloading now; next check "), "\(followed.stderr)")
        let again = try PiperBinary.run(["follow", a], home: home)
        #expect(again.status == 65)
        #expect(again.stderr.contains("Already following Show A (see 'piper follows')"), "\(again.stderr)")

        let listed = try PiperBinary.run(["follows", "--json"], home: home)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["Show A"])
        #expect(rows.first?["folder"] as? String == "Show A")
        #expect(rows.first?["lastResult"] as? String == "1 new episode")

        // The list as any podcast app imports it, read by listparser.
        let exported = try PiperBinary.run(["follows", "--opml"], home: home)
        #expect(exported.status == 0)
        let exportFile = home.deletingLastPathComponent().appendingPathComponent("export-\(UUID().uuidString).opml")
        try exported.stdout.write(to: exportFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: exportFile) }
        let parsed = try runProcessCapturing("/usr/bin/python3", ["-c", """
            import json, sys, listparser
            result = listparser.parse(open(sys.argv[1]).read())
            print(json.dumps([[f.url, f.title] for f in result.feeds]))
            """, exportFile.path])
        try #require(parsed.status == 0, "listparser failed (python3-listparser; scripts/install-deps installs it): \(parsed.stderr)")
        #expect(parsed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[[\"\(a)\", \"Show A\"]]")

        // A list from another app: one show followed already, one new, nested in a folder.
        let list = home.deletingLastPathComponent().appendingPathComponent("subs-\(UUID().uuidString).opml")
        try """
            <?xml version="1.0"?><opml version="1.0"><head><title>Exported</title></head><body>
            <outline text="Podcasts"><outline type="rss" text="Show A" xmlUrl="\(a)"/>
            <outline type="rss" text="Show B" xmlUrl="\(b)"/></outline></body></opml>
            """.write(to: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: list) }
        let imported = try PiperBinary.run(["follow", "--opml", list.path], home: home)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == b + "\n")
        #expect(imported.stderr.contains("Already following Show A"), "\(imported.stderr)")
        #expect(imported.stderr.contains("Followed 1 of 2 feeds; 1 episode downloading now."), "\(imported.stderr)")

        let refreshed = try PiperBinary.run(["follows", "refresh", "Show B"], home: home)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.stdout == "Show B: Not modified\n")

        let dropped = try PiperBinary.run(["unfollow", "Show A"], home: home)
        #expect(dropped.status == 0)
        #expect(dropped.stderr.contains("No longer following Show A; its episodes stay in Show A."), "\(dropped.stderr)")
        #expect(try PiperBinary.run(["unfollow", "Show A"], home: home).status == 65)
        let text = try PiperBinary.run(["follows"], home: home).stdout
        #expect(text.hasPrefix("Show B  "), "\(text)")
        #expect(!text.contains("Show A"))

        let plain = try PiperBinary.run(["follow", server.url("/plain").absoluteString], home: home)
        #expect(plain.status == 65)
        #expect(plain.stderr.contains("is neither a podcast feed nor a page that links one"), "\(plain.stderr)")
        #expect(try PiperBinary.run(["follow"], home: home).status == 64)
    }
}
