import Foundation
import PiperTestSupport
import Testing

/// Every page of `PodcastPages/` (models of podcast hosts' and site themes' episode pages, with
/// their negatives beside them) shared with the built `piper share` against a real `piper
/// serve`: an episode page lands its episode (the file downloaded into the library, no article
/// saved), a negative is saved as an article and downloads nothing. Data-driven: a page is a
/// case by being in the folder, with its expectation in its `<!-- expect: … -->` comment.
/// `PIPER_PLAYER_HOSTS=127.0.0.1` makes the local site's `/players/` pages podcast players.
@Suite(.ownThread, .timeLimit(.minutes(6))) struct PodcastPageTests {
    @Test func everyEpisodePageLandsItsEpisodeAndEveryNegativeStaysAnArticle() throws {
        let site = try PodcastPageSite()
        defer { site.stop() }
        let home = PiperBinary.freshHome()
        let backend = try ShareBackend(home: home.appendingPathComponent("serve"))
        defer { backend.stop() }
        var passed = 0
        var failures: [String] = []
        for page in site.pages {
            let run = try PiperBinary.run(["share", "--wait", "--json", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                           site.url(page).absoluteString], home: home, environment: ["PIPER_PLAYER_HOSTS": "127.0.0.1"])
            let object = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
            let route = object["route"] as? String
            let status = object["status"] as? String
            var ok = route == page.route
            if page.route == "media" {
                // Landed: imported, or the same bytes already in the library (the fixtures share files).
                ok = ok && (status == "imported" || status == "duplicate")
                let fetched = try site.server.requests(page.file ?? "-").contains { $0.method == "GET" }
                ok = ok && fetched
            } else {
                ok = ok && status == "saved"
            }
            if ok { passed += 1 } else { failures.append("\(page.name): expected \(page.route) \(page.file ?? ""), got \(object) \(run.stderr)") }
        }
        print("podcast pages: \(passed)/\(site.pages.count) took the route a person expects")
        for failure in failures { print("  \(failure)") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(site.pages.filter { $0.route == "media" }.count >= 18 && site.pages.filter { $0.route == "article" }.count >= 6)
        // No negative downloaded anything: their media was neither fetched nor probed.
        for path in ["/media/aside-ep.mp3", "/media/news-clip.mp3", "/media/list-ep1.mp3", "/media/narration-week.mp3", "/media/carto-1.mp3"] {
            #expect(try site.server.requests(path).isEmpty, "\(path) was fetched")
        }
        // The sidebar's player was not followed; the pages with a file of their own named did not ask a feed.
        #expect(try site.server.requests("/feeds/blog.xml").isEmpty && site.server.requests("/feeds/substack.xml").isEmpty)
    }

    /// `--as article` still saves an episode page as the article.
    @Test func asArticleOverridesAnEpisodePage() throws {
        let site = try PodcastPageSite()
        defer { site.stop() }
        let home = PiperBinary.freshHome()
        let backend = try ShareBackend(home: home.appendingPathComponent("serve"))
        defer { backend.stop() }
        let page = try #require(site.pages.first { $0.name == "wordpress-powerpress" })
        let run = try PiperBinary.run(["share", "--json", "--as", "article", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                       site.url(page).absoluteString], home: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        #expect(object["route"] as? String == "article" && object["status"] as? String == "saved", "\(object)")
        #expect(try site.server.requests(page.file ?? "-").isEmpty)
    }
}
