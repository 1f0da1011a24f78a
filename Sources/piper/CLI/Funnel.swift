import Foundation
import PiperCore

/// The one path every invocation takes: parse → run → catch → exit status.
/// Output goes to stdout; errors and progress to stderr.
enum Funnel {
    static func main(_ argv: [String], commands: [any Command.Type], version: String) async -> Int32 {
        if let status = immediate(argv, commands: commands, version: version) { return status }
        let args = Array(argv.dropFirst())
        return await run(CommandRoute(commands.first(where: { $0.name == args[0] })!).descend(Array(args.dropFirst())))
    }

    /// `main`, then `exit` with its status from the thread the command finished on: returning
    /// to top-level code would first hop back to the main actor, whose queue gets a thread of
    /// its own just for that (a thread start on every command's way out).
    static func mainThenExit(_ argv: [String], commands: [any Command.Type], version: String) async -> Never {
        exit(await main(argv, commands: commands, version: version))
    }

    /// What needs no command run: the tool's help and version, `piper help …`, an unknown
    /// subcommand, a command's `--help`. Synchronous, so `main.swift` answers these on the main
    /// thread before the first `await` (which starts the concurrency runtime's worker threads);
    /// nil when a command must run.
    static func immediate(_ argv: [String], commands: [any Command.Type], version: String) -> Int32? {
        let args = Array(argv.dropFirst())
        guard let first = args.first else {
            // Bare `piper` is a usage error: the help goes where errors go.
            Output.err(Help.toolText(commands: commands, version: version), terminator: "")
            return ExitCode.usage.rawValue
        }
        switch first {
        case "-h", "--help":
            Output.out(Help.toolText(commands: commands, version: version), terminator: "")
            return ExitCode.success.rawValue
        case "--version":
            Output.out(version)
            return ExitCode.success.rawValue
        case "help":
            return help(Array(args.dropFirst()), commands: commands, version: version)
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { return toolUsageError("Unknown option '\(first)'", commands: commands) }
            let hint = Spelling.closest(to: first, among: commands.map { $0.name }).map { ". Did you mean '\($0)'?" } ?? ""
            return toolUsageError("Unknown subcommand '\(first)'\(hint)", commands: commands)
        }
        let descent = CommandRoute(command).descend(Array(args.dropFirst()))
        if descent.rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            Output.out(Help.text(for: descent.route), terminator: "")
            return ExitCode.success.rawValue
        }
        return nil
    }

    /// Parses and runs the command the command line reached, mapping what it throws to an exit
    /// status; a word that names none of its actions is a usage error listing them.
    static func run(_ descent: CommandRoute.Descent) async -> Int32 {
        let route = descent.route
        let command = route.command
        do {
            if let word = descent.unknownAction { throw UsageError("Unknown action '\(word)': use \(route.childList)") }
            let raw = try parseArguments(descent.rest, options: command.options, arguments: command.arguments)
            command.prepare(raw)
            defer { command.finish() }
            let verbosity = try CommonValues(raw)
            return try await Output.$verbosity.withValue(verbosity) { try await command.execute(raw).rawValue }
        } catch let error as UsageError {
            Output.err("Error: \(error.message)")
            Output.err("Usage: \(Help.usageLine(route))")
            Output.err("  See '\(route.title) --help'.")
            return ExitCode.usage.rawValue
        } catch let error as PiperError {
            Output.err("Error: \(error.description)")
            if let hint = TerminalHint.after(error) { Output.err(hint) }
            return error.exitCode.rawValue
        } catch {
            Output.err("Error: \(SystemErrorText.sentence(for: error))")
            return ExitCode.failure.rawValue
        }
    }

    /// `piper help`, `piper help COMMAND [SUBCOMMAND]`, `piper help --man`, `piper help --markdown`.
    private static func help(_ args: [String], commands: [any Command.Type], version: String) -> Int32 {
        guard let topic = args.first else {
            Output.out(Help.toolText(commands: commands, version: version), terminator: "")
            return ExitCode.success.rawValue
        }
        if topic == "--markdown" {
            // The README's command table (scripts regenerate it; a test checks it).
            Output.out(Help.markdownTable(commands: commands), terminator: "")
            return ExitCode.success.rawValue
        }
        if topic == "--man" {
            Output.out(ManPage.text(commands: commands, version: version), terminator: "")
            return ExitCode.success.rawValue
        }
        guard let command = commands.first(where: { $0.name == topic }) else {
            let hint = Spelling.closest(to: topic, among: commands.map { $0.name }).map { ". Did you mean '\($0)'?" } ?? ""
            return toolUsageError("Unknown subcommand '\(topic)'\(hint)", commands: commands)
        }
        var route = CommandRoute(command)
        for word in args.dropFirst() where !route.children.isEmpty {
            guard let child = route.children.first(where: { $0.command.name == word }) else {
                Output.err("Error: Unknown action '\(word)': use \(route.childList)")
                Output.err("  See '\(route.title) --help'.")
                return ExitCode.usage.rawValue
            }
            route = child
        }
        Output.out(Help.text(for: route), terminator: "")
        return ExitCode.success.rawValue
    }

    private static func toolUsageError(_ message: String, commands: [any Command.Type]) -> Int32 {
        Output.err("Error: \(message)")
        Output.err("Usage: piper <subcommand>")
        Output.err("  See 'piper --help' for the subcommands: \(commands.map { $0.name }.joined(separator: ", ")).")
        return ExitCode.usage.rawValue
    }
}

/// stdout/stderr writers. stdout carries data; stderr carries messages and progress.
enum Output {
    /// `--quiet` / `--verbose` of the running command: bound by the funnel for the command's
    /// task and every task it starts (a task-local value, as a logger's metadata is); a thread
    /// the command starts by hand reads the default (neither quiet nor verbose).
    @TaskLocal static var verbosity = CommonValues()

    static func out(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }
    static func err(_ text: String, terminator: String = "\n") {
        FileHandle.standardError.write(Data((text + terminator).utf8))
    }
    /// A progress or informational line on stderr; `--quiet` silences it.
    static func note(_ text: String) {
        if !verbosity.quiet { err(text) }
    }
    /// Detail on stderr shown only with `--verbose`.
    static func detail(_ text: String) {
        if verbosity.verbose { err(text) }
    }
    /// Pretty, stable JSON for `--json` output.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
