import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Every item of a share is shared (each link in the text, each file part), each its own job
/// with its own outcome in the answer; uploads keep their own names; no answer shows a path of
/// the server's; the limits are said.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareItemsTests {
    static func json(_ body: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
    }

    @Test func everyLinkInTheTextAndEveryFileIsShared() async throws {
        let site = try ShareSite.start()
        let media = try TestHTTPServer()
        let episode = try Data(contentsOf: ShareRouteTests.media.appendingPathComponent("sample.mp3"))
        try media.route("/ep44.mp3", .init(body: Array(episode)))
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let article = site.url("/article").absoluteString, audio = media.url("/ep44.mp3").absoluteString
        let reply = try await server.shareJSON(["text": "Two for you: \(article) and also \(audio)"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
        let shares = try #require(try reply.json()["shares"] as? [[String: Any]])
        #expect(shares.map { $0["status"] as? String } == ["saved", "queued"], "\(reply.text)")
        #expect(shares.first?["url"] as? String != nil && shares.last?["job"] as? String != nil)
        #expect(try reply.json()["status"] as? String == "saved", "one-link clients still read the first outcome at the top")

        // Two file parts: both, each under its own name.
        let folder = try freshDirectory("two-files")
        let a = try ShareUploadTests.wav(bytes: 4000, in: folder), b = try ShareUploadTests.wav(bytes: 6000, in: folder)
        let token = try server.token()
        let two = try ShareUploadTests.curl(server, ["file=@\(a.path);type=audio/wav;filename=a.wav", "file=@\(b.path);type=audio/wav;filename=ep42.wav"],
                                            headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
        #expect(two.status == 202, "\(two.body)")
        let parts = try #require(try Self.json(two.body)["shares"] as? [[String: Any]])
        #expect(parts.map { $0["source"] as? String } == ["a.wav", "ep42.wav"])
        #expect(!two.body.contains(server.home.path) && !two.body.contains("/uploads/"), "no server path in the answer: \(two.body)")
        for part in parts {
            let state = try await ShareRouteTests.waitForJob(try #require(part["job"] as? String), server: server)
            #expect(state.hasPrefix("imported as "), "\(state)")
        }
        let library = try FileManager.default.contentsOfDirectory(atPath: server.state.library.path)
        #expect(library.contains("ep42.wav") && library.contains("a.wav"), "uploads keep their own names: \(library)")
        let listing = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer)
        #expect(!listing.text.contains(server.home.path), "the recent shares show no server path")
    }

    /// Answers say what happened: queued, then (in /api/shares) downloading and imported with the
    /// library path; a second share of the same link is a duplicate with where it is; an
    /// upload is "Uploaded", audio found on a page names the page.
    @Test func answersSayWhatHappened() async throws {
        let media = try TestHTTPServer(routes: [
            "/episode43.html": .html("<html><head><title>Episode 43</title></head><body><h1>Episode 43</h1><audio controls src=\"/ep43.mp3\"></audio></body></html>"),
        ])
        let episode = try Data(contentsOf: ShareRouteTests.media.appendingPathComponent("sample.mp3"))
        try media.route("/ep43.mp3", .init(body: Array(episode)))
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let page = media.url("/episode43.html").absoluteString
        let first = try await server.shareJSON(["url": page], headers: try server.bearer)
        #expect(first.status == 202, "\(first.text)")
        #expect(try first.json()["status"] as? String == "queued")
        #expect(try first.json()["message"] as? String == "Downloading ep43.mp3 (found on episode43.html) — it will be in your library")
        let job = try #require(try first.json()["job"] as? String)
        #expect(try await ShareRouteTests.waitForJob(job, server: server).hasPrefix("imported as "))
        let listed = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer)
        let record = try #require((try listed.json()["shares"] as? [[String: Any]])?.first { $0["job"] as? String == job })
        #expect(record["status"] as? String == "imported" && (record["libraryPath"] as? String)?.hasSuffix(".mp3") == true, "\(record)")

        let again = try await server.shareJSON(["url": media.url("/ep43.mp3").absoluteString], headers: try server.bearer)
        #expect(again.status == 200, "\(again.text)")
        #expect(try again.json()["status"] as? String == "duplicate")
        let path = try #require(try again.json()["libraryPath"] as? String)
        #expect(try again.json()["message"] as? String == "Already in your library as \(path)")

        let folder = try freshDirectory("uploaded")
        let wav = try ShareUploadTests.wav(bytes: 3000, in: folder)
        let upload = try ShareUploadTests.curl(server, ["file=@\(wav.path);type=audio/wav;filename=ep42.wav"],
                                               headers: ["Authorization: Bearer \(try server.token())", "Accept: application/json"])
        #expect(try Self.json(upload.body)["message"] as? String == "Uploaded ep42.wav — it will be in your library")
    }

    @Test func theLimitsAreSaidAndPathsInNamesAreDropped() async throws {
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let none = try await server.shareJSON(["text": "nothing here"], headers: try server.bearer)
        #expect(none.status == 400)
        #expect(try none.json()["error"] as? String == "No URL found in share input")
        let many = (0..<200).map { "https://example.com/\($0)" }.joined(separator: " ")
        let tooMany = try await server.shareJSON(["text": many], headers: try server.bearer)
        #expect(tooMany.status == 413)
        #expect((try tooMany.json()["error"] as? String) == "A share holds at most 20 links and files; this one has 200")
        let folder = try freshDirectory("names")
        let file = try ShareUploadTests.wav(bytes: 2000, in: folder)
        let token = try server.token()
        let traversal = try ShareUploadTests.curl(server, ["file=@\(file.path);type=audio/wav;filename=../../x.wav"],
                                                  headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
        #expect(traversal.status == 202, "\(traversal.body)")
        #expect(try Self.json(traversal.body)["source"] as? String == "x.wav")
        let job = try #require(try Self.json(traversal.body)["job"] as? String)
        #expect(try await ShareRouteTests.waitForJob(job, server: server).hasPrefix("imported as "))
        #expect(FileManager.default.fileExists(atPath: server.state.library.appendingPathComponent("x.wav").path))
        #expect(!FileManager.default.fileExists(atPath: server.home.deletingLastPathComponent().appendingPathComponent("x.wav").path))
    }
}
