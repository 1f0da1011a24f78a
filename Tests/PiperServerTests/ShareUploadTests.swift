import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// Files shared by upload (multipart, streamed to disk) through a real `piper serve`, sent by
/// curl as a phone's share sheet would, and the bad inputs around them.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareUploadTests {
    /// A WAV file of `bytes` of silence: real audio the sniffer recognises.
    static func wav(bytes: Int, in folder: URL) throws -> URL {
        var header = Data("RIFF".utf8)
        func le32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(v).littleEndian) { Data($0) } }
        func le16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(v).littleEndian) { Data($0) } }
        header += le32(36 + bytes) + Data("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        header += Data("data".utf8) + le32(bytes)
        let url = folder.appendingPathComponent("episode-\(UUID().uuidString.prefix(6)).wav")
        FileManager.default.createFile(atPath: url.path, contents: header)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let chunk = Data(count: 1 << 20)
        var left = bytes
        while left > 0 {
            try handle.write(contentsOf: chunk.prefix(min(left, chunk.count)))
            left -= min(left, chunk.count)
        }
        try handle.close()
        return url
    }

    /// `curl -F` against `/share`; returns the status and body.
    static func curl(_ server: ShareServer, _ form: [String], headers: [String]) throws -> (status: Int, body: String) {
        var args = ["-s", "-S", "-o", "-", "-w", "\n%{http_code}", "-X", "POST"]
        for header in headers { args += ["-H", header] }
        for field in form { args += ["-F", field] }
        args.append(server.url + "/share")
        let result = try runProcess("/usr/bin/env", ["curl"] + args)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func uploads(_ server: ShareServer) -> [String] {
        let folder = server.home.appendingPathComponent("uploads")
        return (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { !$0.isEmpty && (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.type] as? FileAttributeType) == .typeRegular }
    }

    @Test func aThirtyMegabyteAudioFileStreamsIntoTheLibrary() async throws {
        let server = try ShareServer()
        let file = try Self.wav(bytes: 30 << 20, in: server.home)
        let token = try server.token()
        let reply = try Self.curl(server, ["file=@\(file.path);type=audio/wav", "title=An episode"],
                                  headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
        #expect(reply.status == 202, "\(reply.body)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
        let job = try #require(json["job"] as? String)
        let state = try await ShareRouteTests.waitForJob(job, server: server)
        #expect(state.hasPrefix("imported as "), "\(state)")
        #expect(uploads(server).isEmpty, "the upload is removed once the journal has its copy")
        let html = try Self.curl(server, ["file=@\(file.path);type=audio/wav"], headers: ["Authorization: Bearer \(token)", "Accept: text/html"])
        #expect(html.body.contains("Uploaded \(file.lastPathComponent) — it will be in your library"), "an upload says it was uploaded")
    }

    @Test func anOversizedFileIsRefusedWhileStreamingAndLeavesNothing() throws {
        let server = try ShareServer(["--max-upload", "1000000"])
        let file = try Self.wav(bytes: 3 << 20, in: server.home)
        let reply = try Self.curl(server, ["file=@\(file.path);type=audio/wav"], headers: ["Authorization: Bearer \(try server.token())", "Accept: application/json"])
        #expect(reply.status == 413, "\(reply.body)")
        #expect(reply.body.contains("larger than the limit of 1000000 bytes"))
        // Without a declared length the cap is found while the bytes stream in.
        let chunked = try Self.curl(server, ["file=@\(file.path);type=audio/wav"],
                                    headers: ["Authorization: Bearer \(try server.token())", "Accept: application/json", "Transfer-Encoding: chunked"])
        #expect(chunked.status == 413, "\(chunked.body)")
        #expect(uploads(server).isEmpty)
    }

    @Test func wrongTypesMalformedBodiesAndStrangersAreRefused() async throws {
        let server = try ShareServer()
        let token = try server.token()
        let text = server.home.appendingPathComponent("notes.txt")
        try Data("just text".utf8).write(to: text)
        let wrong = try Self.curl(server, ["file=@\(text.path);type=text/plain"], headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
        #expect(wrong.status == 415)
        #expect(wrong.body.contains("only audio, video and zip files"))
        let stranger = try Self.curl(server, ["file=@\(text.path);type=audio/mpeg"], headers: ["Accept: application/json"])
        #expect(stranger.status == 401)
        let malformed = try await Client.send("POST", server.url + "/share", body: Data("--xyz\r\nContent-Disposition: form-data; name=\"url\"\r\n\r\nhttps://exa".utf8),
                                              headers: ["Authorization": "Bearer \(token)", "Accept": "application/json",
                                                        "Content-Type": "multipart/form-data; boundary=xyz"])
        #expect(malformed.status == 400)
        #expect((try malformed.json()["error"] as? String)?.contains("malformed") == true)
        let noURL = try Self.curl(server, ["text=nothing to see here"], headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
        #expect(noURL.status == 400)
        #expect(noURL.body.contains("No URL found in share input"))
        #expect(uploads(server).isEmpty)
    }
}

/// Upload names a phone may send: longer than a file system takes in bytes (though short in
/// characters), and with bidi controls that make a name read backwards.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareUploadNameTests {
    static let cases: [(label: String, name: String)] = [
        ("90 CJK characters", String(repeating: "音", count: 90) + ".wav"),
        ("100 emoji", String(repeating: "🎧", count: 100) + ".wav"),
        ("a letter with 199 combining marks", "a" + String(repeating: "\u{0301}", count: 199) + "b.wav"),
        ("a bidi override", "\u{202E}gnp.wav"),
        ("zero-width and isolates", "ep\u{200B}isode\u{2066}one\u{2069}.wav"),
    ]

    @Test func longAndBidiNamesAreStoredCutOnACharacterWithTheirExtension() async throws {
        let server = try ShareServer()
        let token = try server.token()
        for (index, (label, name)) in Self.cases.enumerated() {
            let wav = try ShareUploadTests.wav(bytes: 4000 + 2 * index, in: server.home)   // each its own, not a duplicate
            // curl sends the name as given (UTF-8), as a phone's share sheet does.
            let reply = try ShareUploadTests.curl(server, ["file=@\(wav.path);filename=\(name);type=audio/wav"],
                                                  headers: ["Authorization: Bearer \(token)", "Accept: application/json"])
            #expect(reply.status == 202, "\(label): \(reply.status) \(reply.body)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any], "\(label)")
            let job = try #require(json["job"] as? String, "\(label): \(reply.body)")
            let state = try await ShareRouteTests.waitForJob(job, server: server)
            #expect(state.hasPrefix("imported as "), "\(label): \(state)")
            let shares = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer).json()["shares"] as? [[String: Any]]
            let stored = try #require(shares?.first { $0["job"] as? String == job }?["source"] as? String, "\(label)")
            #expect(stored.utf8.count <= 255 && stored.hasSuffix(".wav"), "\(label): \(stored.utf8.count) bytes: \(stored)")
            #expect(stored.unicodeScalars.allSatisfy { $0.properties.generalCategory != .format }, "\(label): \(stored.debugDescription)")
            if index < 2 { #expect(stored.count > 40 && name.hasPrefix(stored.dropLast(4)), "\(label): whole characters of it are kept: \(stored)") }
        }
    }
}
