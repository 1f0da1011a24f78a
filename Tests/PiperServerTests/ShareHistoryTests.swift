import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The recent shares outlive the server: a real `piper serve` restarted on the same state folder
/// lists the article it saved, the media job with its journal state and the failure, in order.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareHistoryTests {
    static func shares(_ server: ShareServer) async throws -> [[String: Any]] {
        let reply = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer)
        try #require(reply.status == 200, "\(reply.text)")
        return try reply.json()["shares"] as? [[String: Any]] ?? []
    }

    @Test func theHomePageStillShowsTheSharesAfterARestart() async throws {
        let site = try ShareSite.start()
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let article = try await server.shareJSON(["url": site.url("/article").absoluteString], headers: try server.bearer)
        #expect(article.status == 200, "\(article.text)")
        let readerURL = try #require(try article.json()["url"] as? String)
        let file = try ShareUploadTests.wav(bytes: 64 << 10, in: server.home)
        let upload = try ShareUploadTests.curl(server, ["file=@\(file.path);type=audio/wav"],
                                               headers: ["Authorization: Bearer \(try server.token())", "Accept: application/json"])
        #expect(upload.status == 202, "\(upload.body)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(upload.body.utf8)) as? [String: Any])["job"] as? String
        #expect(try await ShareRouteTests.waitForJob(try #require(job), server: server).hasPrefix("imported as "))
        let failed = try await server.shareJSON(["text": "nothing to see"], headers: try server.bearer)
        #expect(failed.status == 400)
        let before = try await Self.shares(server)
        #expect(before.count == 3)

        try server.restart()
        let after = try await Self.shares(server)
        #expect(after.map { $0["id"] as? String } == before.map { $0["id"] as? String }, "the same shares, newest first")
        #expect(after.map { $0["status"] as? String } == ["failed", "imported", "saved"], "a media share's status follows its job")
        #expect(after[0]["state"] as? String == "failed: No URL found in share input")
        #expect((after[1]["state"] as? String)?.hasPrefix("imported as ") == true, "\(after[1])")
        #expect(after[1]["job"] as? String == job)
        let saved = try #require(after[2]["state"] as? String)
        #expect(saved.hasPrefix("saved: \(readerURL), until "), "\(saved)")
        // The article itself is in the store the new process opened.
        let id = try #require(URL(string: readerURL)?.lastPathComponent)
        #expect(try await Client.get("\(server.url)/\(id)").text.contains("Readability keeps it as the body"))
        let home = try await Client.send("GET", server.url + "/", headers: ["Authorization": "Bearer \(try server.token())", "Accept": "text/html"])
        #expect(home.text.contains("A shared article") && home.text.contains("No URL found in share input"))
        let mode = try FileManager.default.attributesOfItem(atPath: server.home.appendingPathComponent("recent-shares.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theFileKeepsTheNewestAndADamagedOneIsIgnored() throws {
        let home = try freshDirectory("history")
        let file = ShareHistory.file(in: StateFolder(url: home))
        let history = ShareHistory(limit: 2, file: file)
        for n in 1...3 {
            history.add(ShareRecord(id: "r\(n)", created: Date(timeIntervalSince1970: Double(n)), device: "phone", source: nil,
                                    status: .failed, message: "m\(n)", httpStatus: 400))
        }
        #expect(ShareHistory(limit: 2, file: file).recent.map(\.id) == ["r3", "r2"])
        #expect(ShareHistory(limit: 1, file: file).recent.map(\.id) == ["r3"])
        try Data("{not json".utf8).write(to: file)
        #expect(ShareHistory(limit: 2, file: file).recent.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}
