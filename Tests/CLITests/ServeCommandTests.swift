import Foundation
import PiperTestSupport
import Testing

/// `piper serve`'s command line (the serving itself is covered in PiperServerTests).
@Suite(.ownThread) struct ServeCommandTests {
    @Test func helpListsTheOptions() throws {
        let result = try PiperBinary.run(["serve", "--help"])
        #expect(result.status == 0)
        for option in ["--host", "--port", "--db", "--postgres", "--public-url", "--ttl"] {
            #expect(result.stdout.contains(option), "help lacks \(option)")
        }
        #expect(result.stdout.contains("OVERVIEW:"))
    }

    @Test(arguments: [
        ["--db", "/tmp/x.sqlite", "--postgres", "postgresql://localhost/x"],
        ["--port", "70000"],
        ["--port", "abc"],
        ["--ttl", "0"],
        ["--public-url", "ftp://example.org"],
        ["--bogus"],
    ])
    func badCommandLinesAreUsageErrors(arguments: [String]) throws {
        let result = try PiperBinary.run(["serve"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
        #expect(result.stdout.isEmpty)
    }

    @Test func unusableHostExitsUnavailable() throws {
        let result = try PiperBinary.run(["serve", "--host", "not-an-address", "--port", "0"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("Cannot listen on not-an-address"))
    }

    @Test func unreachablePostgresExitsUnavailable() throws {
        let result = try PiperBinary.run(["serve", "--port", "0", "--postgres", "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("PostgreSQL"))
    }
}
