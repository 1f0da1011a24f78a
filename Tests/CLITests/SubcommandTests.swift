import Foundation
import PiperTestSupport
import Testing

/// `library` and `downloads` actions are subcommands: each has its own usage, options and help,
/// and a word that names none of them is a usage error listing the valid ones. Run on the built
/// binary.
@Suite(.ownThread) struct SubcommandTests {
    /// Each subcommand's help, by every form, with its own usage line and only its own options.
    @Test(arguments: [
        (["library", "rm"], "USAGE: piper library rm [--library <DIR>] [--postgres <URL>] <ITEM>", ["--library", "--postgres", "<ITEM>"], ["--revoke", "--json", "--path"]),
        (["library", "feed"], "USAGE: piper library feed [--revoke] [--no-qr] [--library <DIR>]", ["--revoke", "--no-qr"], ["--json", "--path"]),
        (["downloads", "retry"], "USAGE: piper downloads retry <ID>", ["<ID>"], ["--json"]),
        (["downloads", "cancel"], "USAGE: piper downloads cancel <ID>", ["<ID>"], ["--json"]),
        (["downloads", "rm"], "USAGE: piper downloads rm <ID>", ["<ID>"], ["--json"]),
    ])
    func subcommandHelp(_ path: [String], _ usage: String, _ shown: [String], _ hidden: [String]) throws {
        let help = try PiperBinary.run(path + ["--help"])
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty)
        #expect(help.stdout.contains(usage), "\(help.stdout)")
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:"] { #expect(help.stdout.contains(section)) }
        #expect(!help.stdout.contains("SUBCOMMANDS:"))
        for text in shown { #expect(help.stdout.contains(text), "\(path) help lacks \(text)") }
        for text in hidden { #expect(!help.stdout.contains(text), "\(path) help shows \(text)") }
        #expect(try PiperBinary.run(["help"] + path).stdout == help.stdout)
        #expect(try PiperBinary.run(path + ["-h"]).stdout == help.stdout)
        #expect(try PiperBinary.run(path + ["some-id", "--help"]).stdout == help.stdout)
    }

    /// The parent's help lists its subcommands and only the listing's options.
    @Test func parentHelpListsSubcommands() throws {
        let library = try PiperBinary.run(["library", "--help"])
        #expect(library.status == 0)
        #expect(library.stdout.contains("USAGE: piper library [--json] [--path] [--library <DIR>] [--postgres <URL>]\n       piper library <subcommand>\n"), "\(library.stdout)")
        #expect(library.stdout.contains("SUBCOMMANDS:\n  rm  "), "\(library.stdout)")
        #expect(library.stdout.contains("\n  feed  "))
        #expect(!library.stdout.contains("--revoke"), "--revoke is feed's alone")
        #expect(!library.stdout.contains("ACTION"))
        let downloads = try PiperBinary.run(["help", "downloads"])
        #expect(downloads.status == 0)
        for name in ["retry", "cancel", "rm"] { #expect(downloads.stdout.contains("\n  \(name)  "), "\(name)") }
        #expect(downloads.stdout.contains("See 'piper help downloads <subcommand>'"))
    }

    @Test(arguments: [
        (["library", "bogus"], "Error: Unknown action 'bogus': use rm or feed", "Usage: piper library [--json]"),
        (["library", "--json", "remove", "x"], "Error: Unknown action 'remove': use rm or feed", "See 'piper library --help'"),
        (["downloads", "frob", "1"], "Error: Unknown action 'frob': use retry, cancel or rm", "Usage: piper downloads [--json]"),
        (["help", "downloads", "frob"], "Error: Unknown action 'frob': use retry, cancel or rm", "See 'piper downloads --help'"),
        (["library", "rm"], "Error: Missing expected argument '<ITEM>'", "Usage: piper library rm [--library <DIR>] [--postgres <URL>] <ITEM>"),
        (["downloads", "cancel", "a", "b"], "Error: Unexpected argument 'b'", "Usage: piper downloads cancel <ID>"),
        (["library", "--revoke"], "Error: Unknown option '--revoke'", "Usage: piper library [--json]"),
        (["library", "rm", "--revoke", "x"], "Error: Unknown option '--revoke'", "See 'piper library rm --help'"),
        (["downloads", "retry", "--json", "x"], "Error: Unknown option '--json'", "Usage: piper downloads retry <ID>"),
    ])
    func wrongActionsAndArgumentsAreUsageErrors(_ args: [String], _ error: String, _ usage: String) throws {
        let result = try PiperBinary.run(args)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(error), "\(result.stderr)")
        #expect(result.stderr.contains(usage), "\(result.stderr)")
    }

    /// The first positional word picks the subcommand, so options may come before it, as they
    /// could when actions were positionals: these reach `rm` and `cancel` (a refusal, 65), not
    /// a usage error.
    @Test func optionsBeforeTheSubcommandStillReachIt() throws {
        let home = PiperBinary.freshHome()
        let library = home.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let removed = try PiperBinary.run(["library", "--library", library.path, "rm", "nothing.mp3"], home: home)
        #expect(removed.status == 65, "\(removed.stderr)")
        #expect(removed.stderr.contains("Nothing in the library matches nothing.mp3"), "\(removed.stderr)")
        let cancelled = try PiperBinary.run(["downloads", "-q", "cancel", "0123456789ab"], home: home)
        #expect(cancelled.status == 65, "\(cancelled.stderr)")
        #expect(!cancelled.stderr.contains("Usage:"))
        let ended = try PiperBinary.run(["library", "--", "rm", "nothing.mp3"], home: home)
        #expect(ended.status == 65, "\(ended.stderr)")
    }

    /// The feed subcommand takes --revoke; the listing and rm do not see it.
    @Test func feedRevokeReplacesTheSecret() throws {
        let home = PiperBinary.freshHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try PiperBinary.run(["library", "feed"], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try PiperBinary.run(["library", "feed"], home: home).stdout == first.stdout)
        let revoked = try PiperBinary.run(["library", "feed", "--revoke"], home: home)
        #expect(revoked.status == 0)
        #expect(revoked.stdout.hasSuffix(".xml\n") && revoked.stdout != first.stdout)
        #expect(revoked.stderr.contains("The feed has a new secret"))
    }
}
