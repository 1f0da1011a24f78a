import Foundation
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A long-running `piper agent` (as the systemd unit runs it) under 30 shares at once: local
/// files (the same one several times, the same bytes under another name), links, duplicates,
/// impostors and archives. It must stay up, end every job in one terminal state, and keep each
/// distinct content once.
@Suite(.ownThread) struct AgentLoadTests {
    static let fixtures = PiperBinary.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

    func journal(_ home: URL) throws -> [[String: Any]] {
        let listing = try PiperBinary.run(["downloads", "--json"], home: home)
        return (try? JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    @Test func aRunningAgentSurvivesThirtyParallelSharesAndEndsEachJobOnce() throws {
        let home = PiperBinary.freshHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let server = try TestHTTPServer(routes: [:], staticRoot: Self.fixtures)
        defer { server.stop() }

        let agent = Process()
        agent.executableURL = PiperBinary.url
        agent.arguments = ["agent"]
        var env = ProcessInfo.processInfo.environment
        env["PIPER_HOME"] = home.path
        env["PIPER_AGENT_POLL_MS"] = "100"
        agent.environment = env
        let log = home.appendingPathComponent("agent-under-load.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        agent.standardError = try FileHandle(forWritingTo: log)
        agent.standardOutput = FileHandle.nullDevice
        try agent.run()
        defer { if agent.isRunning { kill(agent.processIdentifier, SIGKILL); agent.waitUntilExit() } }
        #expect(try eventually { try PiperBinary.run(["downloads"], home: home).status == 0 && FileManager.default.fileExists(atPath: home.appendingPathComponent("agent.lock").path) })

        let copy = home.appendingPathComponent("copy-of-sample.mp3")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("sample.mp3"), to: copy)
        let local = ["sample.mp3", "sample.mp3", "sample.mp3", "sample.m4b", "random-bytes.m4b", "two-part-book.zip",
                     "zip-slip.zip", "sample.flac", "empty.mp3"].map { Self.fixtures.appendingPathComponent($0).path } + [copy.path, copy.path]
        let links = ["sample.flac", "sample.ogg", "sample.opus", "sample.wav", "sample.m4a", "sample.mov", "sample.aiff",
                     "sample.caf", "sample.mp4", "error-page-named.mp3", "empty.mp3", "sample.ogg", "two-part-book.zip",
                     "sample.mp3", "sample.flac", "sample.opus", "random-bytes.m4b", "sample.m4a", "sample.wav"]
            .map { server.url("/\($0)").absoluteString }
        let items = local + links
        #expect(items.count == 30)

        let results = ShareResults()
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let result = try? PiperBinary.run(["share", "--json", items[index]], home: home)
            results.add(index: index, result: result)
        }
        let shares = results.all
        for (index, result) in shares {
            #expect(result?.status == 0, "share of \(items[index]) exits 0: \(result?.stderr ?? "did not run")")
        }

        let terminal: Set<String> = ["imported", "duplicate", "failed"]
        let settled = try eventually(within: 180) {
            let entries = try journal(home)
            return !entries.isEmpty && entries.allSatisfy { terminal.contains($0["state"] as? String ?? "") }
        }
        let entries = try journal(home)
        let agentLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(settled, "every job ends: \(entries.map { "\($0["state"] ?? "?") \($0["url"] ?? "?")" })\n\(agentLog.suffix(3000))")
        #expect(agent.isRunning, "the agent is still up:\n\(agentLog.suffix(3000))")

        // Every share's job is one journal entry in one terminal state.
        let ids = Set(entries.compactMap { $0["id"] as? String })
        #expect(ids.count == entries.count)
        for (index, result) in shares {
            let object = result.flatMap { try? JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as? [String: Any] }
            let id = object?["id"] as? String
            #expect(id.map(ids.contains) == true, "share of \(items[index]) has a journal entry: \(result?.stdout ?? "")")
        }
        let failures = entries.filter { ($0["state"] as? String) == "failed" }.compactMap { $0["url"] as? String }
        #expect(failures.allSatisfy { $0.contains("random-bytes") || $0.contains("empty") || $0.contains("error-page") },
                "only the impostors fail: \(entries.filter { ($0["state"] as? String) == "failed" }.map { "\($0["url"] ?? "") \($0["reason"] ?? "")" })")

        // The library holds each distinct content once, and all of it.
        let library = try PiperBinary.run(["library", "--json"], home: home)
        let catalog = (try? JSONSerialization.jsonObject(with: Data(library.stdout.utf8)) as? [String: Any]) ?? [:]
        let placed = catalog["items"] as? [[String: Any]] ?? []
        let shas = placed.compactMap { $0["sha256"] as? String }
        // Each content once in each place: once at the top, and once in a zip's folder whose entry
        // is already in the library (the folder is whole: it holds a hard link of that file).
        let places = placed.map { "\($0["sha256"] as? String ?? "") in \((($0["path"] as? String ?? "") as NSString).deletingLastPathComponent)" }
        #expect(Set(places).count == places.count, "no content twice in one place: \(places)")
        // And the bytes once on disk: the files of one content are one inode.
        let root = URL(fileURLWithPath: try PiperBinary.run(["library", "--path"], home: home).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        var inodes: [String: Set<UInt64>] = [:]
        for item in placed {
            guard let sha = item["sha256"] as? String, let path = item["path"] as? String else { continue }
            var info = stat()
            #expect(stat(root.appendingPathComponent(path).path, &info) == 0, "\(path) is in the library folder")
            inodes[sha, default: []].insert(UInt64(info.st_ino))
        }
        #expect(inodes.values.allSatisfy { $0.count == 1 }, "one copy of each content on disk: \(inodes)")
        for name in ["sample.mp3", "sample.m4b", "sample.flac", "sample.ogg", "sample.opus", "sample.wav", "sample.m4a",
                     "sample.mov", "sample.aiff", "sample.caf", "sample.mp4"] {
            let want = try sha256(Self.fixtures.appendingPathComponent(name))
            #expect(shas.contains(want), "\(name) is in the library")
        }
        let inbox = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("inbox").path)) ?? []
        #expect(inbox.filter { !$0.hasPrefix(".") }.isEmpty, "nothing is left in the inbox: \(inbox)")
    }

    func sha256(_ file: URL) throws -> String {
        String(try runProcess("/usr/bin/sha256sum", [file.path]).stdout.prefix(64))
    }
}

/// `@unchecked Sendable`: `results` is guarded by `lock`.
final class ShareResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(Int, PiperBinary.Result?)] = []

    func add(index: Int, result: PiperBinary.Result?) {
        lock.lock(); results.append((index, result)); lock.unlock()
    }

    var all: [(Int, PiperBinary.Result?)] {
        lock.lock(); defer { lock.unlock() }
        return results.sorted { $0.0 < $1.0 }
    }
}

/// A playlist shared as one link: one folder, in order, complete when every file is in.
@Suite(.ownThread) struct SharePlaylistTests {
    @Test func anM3UBecomesOneOrderedFolderAndAFeedItsNewestEpisodes() throws {
        let fixtures = AgentLoadTests.fixtures
        let m3u = "#EXTM3U\n#PLAYLIST:Two Sides\n#EXTINF:6,First\n/sample.ogg\n#EXTINF:6,Second\n/sample.flac\n/sample.opus\n"
        let feed = """
            <rss version="2.0"><channel><title>Test Cast</title>
            <item><title>Newest</title><enclosure url="/sample.m4a" type="audio/mp4"/></item>
            <item><title>Older</title><enclosure url="/sample.mp3" type="audio/mpeg"/></item>
            <item><title>Oldest</title><enclosure url="/sample.wav" type="audio/wav"/></item>
            </channel></rss>
            """
        let hls = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg.ts\n"
        let server = try TestHTTPServer(routes: [
            "/lists/two-sides.m3u": .init(headers: ["Content-Type": "audio/x-mpegurl"], body: m3u),
            "/feed": .init(headers: ["Content-Type": "application/rss+xml"], body: feed),
            "/live.m3u8": .init(headers: ["Content-Type": "application/vnd.apple.mpegurl"], body: hls),
        ], staticRoot: fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()

        let shared = try PiperBinary.run(["share", "--wait", "--into", "Books", server.url("/lists/two-sides.m3u").absoluteString], home: home)
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(shared.stderr.contains("In the library as Books/Two Sides"), "\(shared.stderr)")
        let folder = home.appendingPathComponent("library/Books/Two Sides")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        #expect(names == ["01 sample.ogg", "02 sample.flac", "03 sample.opus"], "in playlist order: \(names)")
        let listing = try PiperBinary.run(["downloads"], home: home)
        #expect(listing.stdout.contains("playlist Books/Two Sides: 3 of 3 in the library (complete)"), "\(listing.stdout)")

        let newest = try PiperBinary.run(["share", "--wait", "--newest", "2", server.url("/feed").absoluteString], home: home)
        #expect(newest.status == 0, "\(newest.stderr)")
        let cast = ((try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("library/Test Cast").path)) ?? []).sorted()
        #expect(cast == ["01 sample.m4a", "02 sample.mp3"], "\(cast)")

        let live = try PiperBinary.run(["share", "--json", server.url("/live.m3u8").absoluteString], home: home)
        #expect(live.status == 65)
        #expect(live.stdout.contains("HLS stream"), "\(live.stdout)")
    }
}

/// People share the episode's page, not its file.
@Suite(.ownThread) struct ShareEpisodePageTests {
    @Test func anEpisodePageTakesTheMediaRouteAndAPageWithoutMediaCanBeForcedToSaySo() throws {
        let page = """
            <html><head><title>Episode One</title><meta property="og:audio" content="/sample.mp3"></head>
            <body><h1>Episode One</h1><p>Show notes.</p></body></html>
            """
        let server = try TestHTTPServer(routes: ["/episodes/1": .html(page), "/plain": .html("<p>No media here, just words.</p>")],
                                        staticRoot: AgentLoadTests.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let shared = try PiperBinary.run(["share", "--wait", "--json", server.url("/episodes/1").absoluteString], home: home)
        #expect(shared.status == 0, "\(shared.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shared.stdout.utf8)) as? [String: Any])
        #expect(object["route"] as? String == "media")
        #expect(object["status"] as? String == "imported")
        #expect(object["libraryPath"] as? String == "sample.mp3")

        let library = try PiperBinary.run(["library", "--json"], home: home)
        #expect(library.stdout.contains(#""title":"Episode One""#), "tags the file has win: \(library.stdout)")

        let forced = try PiperBinary.run(["share", "--as", "media", server.url("/plain").absoluteString], home: home)
        #expect(forced.status == 65)
        #expect(forced.stderr.contains("No media file found on"), "\(forced.stderr)")
    }

    @Test func aFileWithoutTagsTakesThePagesTitleAndAuthor() throws {
        let page = """
            <html><head><title>Site · Ignored</title><meta property="og:title" content="The Interview, Part 2">
            <meta name="author" content="Jo Host"><meta property="og:audio" content="/sample.wav"></head><body></body></html>
            """
        let server = try TestHTTPServer(routes: ["/ep/2": .html(page)], staticRoot: AgentLoadTests.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()
        let shared = try PiperBinary.run(["share", "--wait", server.url("/ep/2").absoluteString], home: home)
        #expect(shared.status == 0, "\(shared.stderr)")
        let library = try PiperBinary.run(["library", "--json"], home: home)
        #expect(library.stdout.contains(#""title":"The Interview, Part 2""#), "\(library.stdout)")
        #expect(library.stdout.contains(#""author":"Jo Host""#), "\(library.stdout)")
    }
}

/// `--quiet` leaves only errors and data: no progress or state lines.
@Suite(.ownThread) struct QuietTests {
    @Test func quietSilencesProgressButNotOutcomes() throws {
        let home = PiperBinary.freshHome()
        let plain = try PiperBinary.run(["agent", "--once"], home: home)
        #expect(plain.stderr.contains("Agent done"))
        let quiet = try PiperBinary.run(["agent", "--once", "--quiet"], home: home)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")

        let file = AgentLoadTests.fixtures.appendingPathComponent("sample.ogg").path
        let shared = try PiperBinary.run(["share", "--quiet", "--wait", file], home: home)
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(!shared.stderr.contains("  landed"), "no state lines: \(shared.stderr)")
        #expect(shared.stderr.contains("In the library as sample.ogg"), "the outcome is still said: \(shared.stderr)")
        #expect(shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "sample.ogg")
    }
}
