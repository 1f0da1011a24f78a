import Foundation
import PiperTestSupport
import Testing

/// `piper pair` and `piper devices` through the built binary: output, exit statuses, usage errors.
@Suite(.ownThread)
struct DevicesCommandTests {
    @Test func tokensAreListedAndRevoked() throws {
        let home = PiperBinary.freshHome()
        let empty = try PiperBinary.run(["devices"], home: home)
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("piper pair"))
        let made = try PiperBinary.run(["devices", "token", "shortcut"], home: home)
        #expect(made.status == 0)
        let token = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let listed = try PiperBinary.run(["devices", "--json"], home: home)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["shortcut"])
        #expect(rows.first?["kind"] as? String == "token")
        #expect(!(try String(contentsOf: home.appendingPathComponent("devices.json"), encoding: .utf8)).contains(token),
                "only the token's hash is stored")
        #expect(try PiperBinary.run(["devices", "revoke", "shortcut"], home: home).status == 0)
        let unknown = try PiperBinary.run(["devices", "revoke", "shortcut"], home: home)
        #expect(unknown.status == 65 && unknown.stderr.contains("No device 'shortcut'"))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try PiperBinary.run(["devices", "frobnicate"]).status == 64)
        #expect(try PiperBinary.run(["devices", "revoke"]).status == 64)
        #expect(try PiperBinary.run(["pair", "--url", "ftp://example.org"]).status == 64)
        let help = try PiperBinary.run(["help", "pair"])
        #expect(help.status == 0 && help.stdout.contains("OVERVIEW:") && help.stdout.contains("--url"))
    }

    @Test func pairPrintsTheLinkOnStdoutAndTheCodeOnStderr() throws {
        let home = PiperBinary.freshHome()
        let result = try PiperBinary.run(["pair", "--url", "https://read.example.org"], home: home)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("https://read.example.org/pair?code="))
        #expect(result.stderr.contains("▀") || result.stderr.contains("▄"))
        let plain = try PiperBinary.run(["pair", "--no-qr", "--url", "https://read.example.org"], home: home)
        #expect(!plain.stderr.contains("█"))
    }
}
