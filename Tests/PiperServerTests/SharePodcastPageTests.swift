import Foundation
import PiperTestSupport
import Testing

/// `POST /share` of every page of `Tests/CLITests/PodcastPages` (models of podcast hosts' and
/// themes' episode pages, and their negatives) on a real `piper serve`: each episode page is
/// queued and its episode lands in the server's library through its own agent (the players and
/// feeds fetched through the server's guard, opened for loopback with `--allow-host`); each
/// negative is saved as an article. Data-driven: the folder's pages are the cases.
@Suite(.ownThread, .timeLimit(.minutes(8)))
struct SharePodcastPageTests {
    @Test func everyEpisodePageSharedToTheServerLandsItsEpisode() async throws {
        let site = try PodcastPageSite()
        defer { site.stop() }
        let server = try ShareServer(["--allow-host", "127.0.0.1"], environment: ["PIPER_PLAYER_HOSTS": "127.0.0.1"])
        var passed = 0
        var failures: [String] = []
        for page in site.pages {
            let reply = try await server.shareJSON(["url": site.url(page).absoluteString], headers: try server.bearer)
            let json = (try? reply.json()) ?? [:]
            var ok: Bool
            if page.route == "media" {
                ok = reply.status == 202 && json["status"] as? String == "queued"
                if ok, let job = json["job"] as? String {
                    let state = try await ShareRouteTests.waitForJob(job, server: server)
                    ok = state.hasPrefix("imported as ") || state.contains("already in the library") || state.contains("duplicate")
                    if !ok { failures.append("\(page.name): the job ended \(state)") }
                }
                let fetched = try site.server.requests(page.file ?? "-").contains { $0.method == "GET" }
                ok = ok && fetched
            } else {
                ok = reply.status == 200 && json["status"] as? String == "saved"
            }
            if ok { passed += 1 } else { failures.append("\(page.name): expected \(page.route), got \(reply.status) \(reply.text)") }
        }
        print("podcast pages shared to the server: \(passed)/\(site.pages.count) took the route a person expects")
        for failure in failures { print("  \(failure)") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        for path in ["/media/aside-ep.mp3", "/media/news-clip.mp3", "/media/list-ep1.mp3", "/media/narration-week.mp3", "/media/carto-1.mp3"] {
            #expect(try site.server.requests(path).isEmpty, "\(path) was fetched")
        }
    }
}
