import Foundation
import PiperTestSupport
import Testing

/// The media route through the built binary: `piper share` returns at once, the agent it starts
/// finishes the work, and `piper library` / `piper downloads` show the outcome.
@Suite(.ownThread) struct ShareMediaTests {
    static let fixtures = PiperBinary.packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

    /// Polls `piper <args> --json` (through `eventually`) until `done` holds for the decoded
    /// object, and returns the last object read.
    func poll(_ args: [String], home: URL, seconds: Double = 90,
              until done: ([String: Any]) -> Bool) throws -> [String: Any] {
        var last: [String: Any] = [:]
        _ = try eventually(within: seconds) {
            let r = try PiperBinary.run(args + ["--json"], home: home)
            guard r.status == 0, let data = r.stdout.data(using: .utf8) else { return false }
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                last = object
            } else if let array = try? JSONSerialization.jsonObject(with: data) as? [Any] {
                last = ["entries": array]
            }
            return done(last)
        }
        return last
    }

    func items(_ listing: [String: Any]) -> [[String: Any]] { listing["items"] as? [[String: Any]] ?? [] }

    @Test func aLocalAudiobookLandsInTheChosenFolderWithItsChapters() throws {
        let home = PiperBinary.freshHome()
        let book = Self.fixtures.appendingPathComponent("sample.m4b")
        let share = try PiperBinary.run(["share", "--into", "Audiobooks", book.path], home: home)
        #expect(share.status == 0, "\(share.stderr)")
        let listing = try poll(["library"], home: home) { !items($0).isEmpty }
        let item = try #require(items(listing).first, "the book reaches the library")
        #expect((item["path"] as? String)?.hasPrefix("Audiobooks/") == true)
        #expect((item["chapters"] as? [Any])?.count == 2)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("library/\(item["path"] as? String ?? "")").path))

        // Sharing the same content again is reported as a duplicate, never imported twice.
        let again = try PiperBinary.run(["share", book.path], home: home)
        #expect(again.status == 0)
        // The second job ends as a duplicate of the first; only then is the library final.
        let jobs = try poll(["downloads"], home: home) { listing in
            let entries = listing["entries"] as? [[String: Any]] ?? []
            return entries.count == 2 && entries.allSatisfy { ["imported", "duplicate", "failed"].contains($0["state"] as? String ?? "") }
        }
        let states = (jobs["entries"] as? [[String: Any]] ?? []).compactMap { $0["state"] as? String }
        #expect(states.sorted() == ["duplicate", "imported"], "\(jobs)")
        let after = try poll(["library"], home: home) { !items($0).isEmpty }
        #expect(items(after).count == 1)
    }

    @Test func aWebMediaLinkDownloadsInTheBackgroundAndAnImpostorIsRefused() throws {
        let server = try TestHTTPServer(routes: [:], staticRoot: Self.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()

        let share = try PiperBinary.run(["share", "--json", server.url("/sample.mp3").absoluteString], home: home)
        #expect(share.status == 0, "\(share.stderr)")
        #expect(share.stdout.contains(#""status":"queued""#))
        let listing = try poll(["library"], home: home) { !items($0).isEmpty }
        let journalText = try PiperBinary.run(["downloads"], home: home).stdout
        let agentLog = (try? String(contentsOf: home.appendingPathComponent("downloads/agent.log"), encoding: .utf8)) ?? ""
        #expect(items(listing).count == 1, "journal: \(journalText)\nagent log: \(agentLog)")

        let impostor = try PiperBinary.run(["share", server.url("/error-page-named.mp3").absoluteString], home: home)
        #expect(impostor.status == 0, "queued: the share never waits on the download")
        let journal = try poll(["downloads"], home: home) { object in
            (object["entries"] as? [[String: Any]] ?? []).contains { ($0["state"] as? String) == "failed" }
        }
        let failed = (journal["entries"] as? [[String: Any]] ?? []).filter { ($0["state"] as? String) == "failed" }
        try #require(failed.count == 1, "the HTML page posing as an mp3 fails: \(journal)")
        let reason = (failed[0]["reason"] as? String ?? "").lowercased()
        #expect(reason.contains("web page"), "the reason names the problem: \(reason)")
        #expect(items(try poll(["library"], home: home, seconds: 5) { _ in true }).count == 1)
        let inbox = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("inbox").path)) ?? []
        #expect(inbox.filter { !$0.hasPrefix(".") }.isEmpty, "nothing partial or refused is left in the inbox")
    }

    @Test func waitFollowsTheJobToItsEnd() throws {
        let server = try TestHTTPServer(routes: [:], staticRoot: Self.fixtures)
        defer { server.stop() }
        let home = PiperBinary.freshHome()

        let ok = try PiperBinary.run(["share", "--wait", server.url("/sample.ogg").absoluteString], home: home)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.contains("In the library"))
        // No polling: when --wait returns, the item is already in the catalog.
        let listing = try PiperBinary.run(["library", "--json"], home: home)
        #expect(listing.stdout.contains("sample.ogg"))

        let bad = try PiperBinary.run(["share", "--wait", "--json", server.url("/error-page-named.mp3").absoluteString], home: home)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains(#""status":"failed""#))
        #expect(bad.stdout.contains("web page"))
    }
}
