import Foundation
import PiperTestSupport
import Testing

/// `piper login --cookies FILE` and `piper logout` on the built binary.
@Suite(.ownThread) struct LoginCommandTests {
    let future = Int(Date().timeIntervalSince1970) + 86_400 * 30
    let past = Int(Date().timeIntervalSince1970) - 3_600

    func cookieFile(_ lines: [String], in dir: URL) throws -> URL {
        let file = dir.appendingPathComponent("cookies.txt")
        try (["# Netscape HTTP Cookie File", ""] + lines).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func importsOnlyXCookiesWithMode0600() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let file = try cookieFile([
            "#HttpOnly_.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tsecret",
            ".twitter.com\tTRUE\t/\tTRUE\t\(future)\tct0\tcsrf",
            ".example.com\tTRUE\t/\tFALSE\t\(future)\tother\tnope",
        ], in: dir)
        let result = try PiperBinary.run(["login", "--cookies", file.path], home: home)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("kept 2 X/Twitter cookies"))
        #expect(result.stdout.contains("expire"))

        let stored = home.appendingPathComponent("cookies.txt")
        let attributes = try FileManager.default.attributesOfItem(atPath: stored.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOf: stored, encoding: .utf8)
        #expect(text.contains("#HttpOnly_.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tsecret"))
        #expect(text.contains("ct0"))
        #expect(!text.contains("example.com"))

        let out = try PiperBinary.run(["logout"], home: home)
        #expect(out.status == 0)
        #expect(!FileManager.default.fileExists(atPath: stored.path))
        #expect(try PiperBinary.run(["logout"], home: home).stdout.contains("No X account"))
    }

    @Test func malformedFileNamesTheLine() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try cookieFile([".x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tok", ".x.com TRUE / TRUE 0 broken"], in: dir)
        let result = try PiperBinary.run(["login", "--cookies", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 4"))
    }

    @Test func expiredCookiesDoNotConnect() throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let file = try cookieFile([".x.com\tTRUE\t/\tTRUE\t\(past)\tauth_token\told"], in: dir)
        let result = try PiperBinary.run(["login", "--cookies", file.path], home: home)
        #expect(result.status == 65)
        #expect(result.stderr.contains("expired"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("cookies.txt").path))
        let share = try PiperBinary.run(["share", "--backend", "http://127.0.0.1:9", "https://x.com/a/status/1"], home: home)
        #expect(share.stderr.contains("Open Piper to connect your X account"))
    }

    @Test func missingOptionIsAUsageError() throws {
        #expect(try PiperBinary.run(["login"]).status == 64)
        #expect(try PiperBinary.run(["login", "--cookies", "/nonexistent/cookies.txt"]).status == 65)
    }
}
