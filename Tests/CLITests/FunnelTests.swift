import Foundation
import PiperTestSupport
import Testing

@Suite(.ownThread) struct FunnelTests {
    @Test func unknownCommandExits64WithUsageHint() throws {
        let r = try PiperBinary.run(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Error: Unknown subcommand 'frobnicate'"))
        #expect(r.stderr.contains("Usage: piper <subcommand>"))
        #expect(r.stderr.contains("piper --help"))
        #expect(r.stdout.isEmpty)
    }

    @Test func unknownOptionExits64() throws {
        let r = try PiperBinary.run(["config", "--frob"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Error: Unknown option '--frob'"))
        #expect(r.stderr.contains("Usage: piper config"))
    }

    @Test func missingOptionValueExits64() throws {
        let r = try PiperBinary.run(["config", "--backend"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Missing value for --backend"))
    }

    @Test func helpFormsAgree() throws {
        let a = try PiperBinary.run(["help", "config"])
        let b = try PiperBinary.run(["config", "--help"])
        let c = try PiperBinary.run(["config", "-h"])
        #expect(a.status == 0 && b.status == 0 && c.status == 0)
        #expect(a.stdout == b.stdout && b.stdout == c.stdout)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:"] { #expect(a.stdout.contains(section)) }
    }

    @Test func toolHelpListsSubcommands() throws {
        let r = try PiperBinary.run(["--help"])
        #expect(r.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:"] { #expect(r.stdout.contains(section)) }
        #expect(r.stdout.contains("config"))
        #expect(try PiperBinary.run(["help"]).stdout == r.stdout)
    }

    @Test func versionPrints() throws {
        let r = try PiperBinary.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test func configShowsOverrideAndRejectsBadBackend() throws {
        let ok = try PiperBinary.run(["config", "--json"], environment: ["PIPER_BACKEND_URL": "http://127.0.0.1:9/"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains(#""backendURL":"http://127.0.0.1:9""#))
        #expect(ok.stdout.contains(#""backendSource":"PIPER_BACKEND_URL""#))

        let bad = try PiperBinary.run(["config", "--backend", "http://example.com"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("http is only allowed for loopback and home-network hosts"))
    }
}
