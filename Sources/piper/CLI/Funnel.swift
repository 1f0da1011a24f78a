import Foundation
import PiperCore

/// The one path every invocation takes: parse → run → catch → exit status.
/// Output goes to stdout; errors and progress to stderr.
enum Funnel {
    static func main(_ argv: [String], commands: [any Command.Type], version: String) async -> Int32 {
        let args = Array(argv.dropFirst())
        guard let first = args.first else {
            Output.out(Help.toolText(commands: commands, version: version), terminator: "")
            return ExitCode.success.rawValue
        }
        switch first {
        case "-h", "--help":
            Output.out(Help.toolText(commands: commands, version: version), terminator: "")
            return ExitCode.success.rawValue
        case "--version":
            Output.out(version)
            return ExitCode.success.rawValue
        case "help":
            guard args.count > 1 else {
                Output.out(Help.toolText(commands: commands, version: version), terminator: "")
                return ExitCode.success.rawValue
            }
            guard let command = commands.first(where: { $0.name == args[1] }) else {
                return toolUsageError("Unknown subcommand '\(args[1])'", commands: commands)
            }
            Output.out(Help.text(for: command), terminator: "")
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { return toolUsageError("Unknown option '\(first)'", commands: commands) }
            return toolUsageError("Unknown subcommand '\(first)'", commands: commands)
        }
        let rest = Array(args.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            Output.out(Help.text(for: command), terminator: "")
            return ExitCode.success.rawValue
        }
        do {
            let parsed = try parseArguments(rest, options: command.options, arguments: command.arguments)
            return try await command.execute(parsed).rawValue
        } catch let error as UsageError {
            Output.err("Error: \(error.message)")
            Output.err("Usage: \(Help.usageLine(command))")
            Output.err("  See 'piper \(command.name) --help'.")
            return ExitCode.usage.rawValue
        } catch let error as PiperError {
            Output.err("Error: \(error.description)")
            return error.exitCode.rawValue
        } catch {
            Output.err("Error: \(error)")
            return ExitCode.failure.rawValue
        }
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
    static func out(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }
    static func err(_ text: String, terminator: String = "\n") {
        FileHandle.standardError.write(Data((text + terminator).utf8))
    }
    /// Pretty, stable JSON for `--json` output.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
