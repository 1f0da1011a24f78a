import Foundation
import PiperCore
import PiperServer
import PiperTestSupport
import Testing
@testable import piper

/// The funnel's parser and typed options, in process (no subprocess).
@Suite(.ownThread) struct OptionParsingTests {
    func parse<C: Command>(_ command: C.Type, _ args: [String]) throws -> Parsed<C.Options> {
        try Parsed<C.Options>(parseArguments(args, options: C.options, arguments: C.arguments))
    }

    @Test func defaultsComeFromTheLibraryThatUsesThem() throws {
        let parsed = try parse(ServeCommand.self, [])
        let library = BackendConfiguration()
        #expect(parsed.ttl == Int(library.ttl))
        #expect(parsed.port == Int(BackendConfiguration.defaultPort))
        #expect(parsed.threads == library.http.threads)
        #expect(parsed.host == library.http.host)
        #expect(Help.text(for: ServeCommand.self).contains("How long a save lives (default \(Int(library.ttl)))."))
    }

    @Test func typedValuesAndForms() throws {
        let parsed = try parse(ServeCommand.self, ["--ttl=60", "--port", "0", "--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.0.0.2"])
        #expect(parsed.ttl == 60 && parsed.port == 0)
        #expect(parsed.trustedProxy == ["10.0.0.1", "10.0.0.2"])
        let share = try parse(ShareCommand.self, ["--browser", "never", "-a", "list.txt", "--", "--not-an-option"])
        #expect(share.browser == .never && share.given(\.browser))
        #expect(share.batchFile == "list.txt")
        #expect(share.positionals == ["--not-an-option"])
        #expect(try parse(ShareCommand.self, ["x"]).browser == ShareFlow.Options().browser)
    }

    @Test(arguments: [
        (["--ttl", "0"], "--ttl takes a whole number from 1 to 31536000, not '0'"),
        (["--ttl", "1", "--ttl", "2"], "--ttl was given more than once"),
        (["--port"], "Missing value for --port <N>"),
        (["--prot", "1"], "Unknown option '--prot'. Did you mean '--port'?"),
        (["extra"], "Unexpected argument 'extra'"),
        (["-q", "-v"], "--quiet and --verbose cannot be used together"),
    ])
    func usageErrorsNameTheOption(_ args: [String], _ message: String) {
        #expect(throws: UsageError(message)) { _ = try parse(ServeCommand.self, args) }
    }

    @Test func choicesAndExclusiveFlags() {
        #expect(throws: UsageError("--browser takes auto, always or never, not 'sometimes'")) {
            _ = try parse(ShareCommand.self, ["--browser", "sometimes", "x"])
        }
        #expect(throws: UsageError("--json and --html cannot be used together")) {
            _ = try ExtractCommand(parse(ExtractCommand.self, ["--json", "--html", "page.html"]))
        }
    }

    @Test func commonOptionsOnEveryCommand() throws {
        for route in CommandRoute.all(allCommands) {
            let names = route.command.options.flatMap { $0.names }
            #expect(names.contains("--quiet") && names.contains("-v"), "\(route.title)")
            #expect(Set(names).count == names.count, "\(route.title) declares a name twice")
        }
        #expect(try parse(ParseCommand.self, ["-v", "-"]).common.verbose)
    }

    @Test func suggestionsAreTypos() {
        #expect(Spelling.closest(to: "shar", among: allCommands.map { $0.name }) == "share")
        #expect(Spelling.closest(to: "backendUrl", among: ConfigFile.keys) == "backendURL")
        #expect(Spelling.closest(to: "frobnicate", among: allCommands.map { $0.name }) == nil)
    }

    /// The README's command table is the one the declarations generate.
    @Test func readmeCommandTableMatchesTheDeclarations() throws {
        let readme = try String(contentsOf: PiperBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let table = Help.markdownTable(commands: allCommands)
        #expect(readme.contains(table), "README.md's command table should be:\n\(table)")
    }

    /// The README's settings table is the one `Tunables.all` generates.
    @Test func readmeSettingsTableMatchesTheTable() throws {
        let readme = try String(contentsOf: PiperBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let table = Tunables.markdownTable()
        #expect(readme.contains(table), "README.md's settings table should be:\n\(table)")
    }

    /// Completions and the man page list every command, subcommand and option that help lists.
    @Test func completionsAndManPageCoverEveryOption() {
        let man = ManPage.text(commands: allCommands, version: piperVersion)
        for shell in CompletionsCommand.Shell.allCases {
            let script = Completions.script(for: shell, commands: allCommands)
            for route in CommandRoute.all(allCommands) {
                let command = route.command
                #expect(script.contains(command.name), "\(shell) lacks \(route.title)")
                #expect(man.contains(".SH COMMAND: \(route.names.joined(separator: " ").uppercased())\n"), "man page lacks \(route.title)")
                for option in command.options {
                    let long = option.primaryName.dropFirst(shell == .fish ? 2 : 0)
                    #expect(script.contains(long), "\(shell) lacks \(route.title) \(option.primaryName)")
                    #expect(man.contains(ManPage.escape(option.primaryName)), "man page lacks \(option.primaryName)")
                }
            }
        }
    }

    /// A subcommand's options complete only after it: fish asks for both words, and bash offers
    /// `library feed`'s --revoke after `feed`, the subcommands after `library`.
    @Test func completionsScopeOptionsToTheirSubcommand() {
        let fish = Completions.script(for: .fish, commands: allCommands)
        #expect(fish.contains("-n '__fish_seen_subcommand_from library; and __fish_seen_subcommand_from feed' -l revoke"), "\(fish)")
        #expect(!fish.contains("-n '__fish_seen_subcommand_from library' -l revoke"))
        #expect(fish.contains("-n '__fish_seen_subcommand_from downloads; and not __fish_seen_subcommand_from retry cancel rm' -a retry"))
        let bash = Completions.script(for: .bash, commands: allCommands)
        #expect(bash.contains("feed) COMPREPLY=($(compgen -W \"--revoke --no-qr --library --db --postgres -q --quiet -v --verbose --help\" -- \"$cur\")) ;;"), "\(bash)")
        #expect(bash.contains("*) COMPREPLY=($(compgen -W \"rm feed --json --path --library --postgres -q --quiet -v --verbose --help\" -- \"$cur\")) ;;"), "\(bash)")
    }

    /// The first positional word picks a subcommand wherever it stands among the options; an
    /// option's value is never taken for it.
    @Test func descentFindsTheSubcommandAfterOptions() {
        let library = CommandRoute(LibraryCommand.self)
        let rm = library.descend(["--library", "rm", "rm", "x"])
        #expect(rm.route.title == "piper library rm")
        #expect(rm.rest == ["--library", "rm", "x"])
        #expect(rm.unknownAction == nil)
        #expect(library.descend(["--library=feed", "--json"]).route.title == "piper library")
        #expect(library.descend(["--", "feed"]).route.title == "piper library feed")
        let unknown = library.descend(["-q", "frob", "x"])
        #expect(unknown.route.title == "piper library" && unknown.unknownAction == "frob")
        #expect(CommandRoute(ShareCommand.self).descend(["rm"]).unknownAction == nil, "a command without subcommands keeps its positionals")
    }
}
