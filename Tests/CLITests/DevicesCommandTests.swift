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
        // The devices are in the server's database, and only the token's hash is.
        let database = ["piper-serve.sqlite", "piper-serve.sqlite-wal"].compactMap {
            FileManager.default.contents(atPath: home.appendingPathComponent($0).path)
        }
        #expect(!database.isEmpty && !database.contains { $0.range(of: Data(token.utf8)) != nil }, "only the token's hash is stored")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("devices.json").path))
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

    /// A link a phone cannot open is never printed as if it could be: the placeholder backend is
    /// refused with the way out (exit 78), a loopback base is printed with a warning.
    @Test func pairRefusesThePlaceholderAndWarnsOfLoopback() throws {
        let home = PiperBinary.freshHome()
        let none = try PiperBinary.run(["pair"], home: home)
        #expect(none.status == 78, "\(none.stderr)")
        #expect(none.stdout.isEmpty && !none.stderr.contains("piper.example.com"))
        #expect(none.stderr.contains("No address for the pairing link: pass the one the phone will use with --url"))
        let loopback = try PiperBinary.run(["pair", "--no-qr", "--url", "http://127.0.0.1:8080"], home: home)
        #expect(loopback.status == 0 && loopback.stdout.hasPrefix("http://127.0.0.1:8080/pair?code="))
        #expect(loopback.stderr.contains("Warning: 127.0.0.1 is this machine's own address, so a phone cannot open this link"))
        #expect(try PiperBinary.run(["config", "set", "backend", "http://piper.lan:8090"], home: home).status == 0)
        let lan = try PiperBinary.run(["pair", "--no-qr"], home: home)
        #expect(lan.status == 0 && lan.stdout.hasPrefix("http://piper.lan:8090/pair?code=") && !lan.stderr.contains("Warning"))
    }

    /// Plain http is a home network's normal case: accepted for private hosts with a note; the
    /// wildcard a server listens on is refused with the reason, blaming the command line.
    @Test func aHomeNetworkBackendOverHTTPIsAcceptedWithANote() throws {
        let home = PiperBinary.freshHome()
        for backend in ["http://piper.lan:8090", "http://192.168.1.5:8080", "http://10.0.0.7", "http://nas.local:8080", "http://[fd12::5]:8080"] {
            let set = try PiperBinary.run(["config", "set", "backend", backend], home: home)
            #expect(set.status == 0, "\(backend): \(set.stderr)")
        }
        let shown = try PiperBinary.run(["config"], home: home)
        #expect(shown.stderr.contains("is reached over plain http: fine on your own network, use https beyond it"), "\(shown.stderr)")
        let wildcard = try PiperBinary.run(["config", "set", "backend", "http://0.0.0.0:8080"], home: home)
        #expect(wildcard.status == 64)
        #expect(wildcard.stderr.contains("from the command line") && !wildcard.stderr.contains("config.json"), "\(wildcard.stderr)")
        #expect(wildcard.stderr.contains("where a server listens on every interface"))
        let internet = try PiperBinary.run(["config", "set", "backend", "http://203.0.113.9:8080"], home: home)
        #expect(internet.status == 64 && internet.stderr.contains("use https"))
        #expect(try PiperBinary.run(["share", "--backend", "http://192.168.1.5:9", "--no-clipboard", "--json", "https://example.invalid/a"],
                                    home: home).stderr.contains("Invalid backend") == false)
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
