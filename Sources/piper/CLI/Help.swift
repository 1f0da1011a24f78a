import Foundation

/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
/// Everything comes from the commands' declarations, as do completions and the man page.
enum Help {
    static let toolAbstract = "Share a link, it lands where it belongs: media into your library, articles into Instapaper."

    /// `[--name <PLACEHOLDER>]` or `[--flag]`.
    static func usageToken(_ option: any OptionDeclaration, placeholderBrackets: Bool = true) -> String {
        guard let p = option.placeholder else { return "[\(option.primaryName)]" }
        return placeholderBrackets ? "[\(option.primaryName) <\(p)>]" : "[\(option.primaryName) \(p)]"
    }

    /// The command's own options and its arguments, for usage lines.
    static func synopsis(_ command: any Command.Type, placeholderBrackets: Bool = true) -> [String] {
        var parts = command.ownOptions.map { usageToken($0, placeholderBrackets: placeholderBrackets) }
        for arg in command.arguments {
            let base = (placeholderBrackets ? "<\(arg.name)>" : arg.name) + (arg.variadic ? " ..." : "")
            parts.append(arg.optional ? "[\(base)]" : base)
        }
        return parts
    }

    static func usageLine(_ route: CommandRoute) -> String {
        ([route.title] + synopsis(route.command)).joined(separator: " ")
    }

    /// An option's help sentence, with its default when it has one.
    static func optionHelp(_ option: any OptionDeclaration) -> String {
        guard let value = option.defaultText else { return option.help }
        let sentence = option.help.hasSuffix(".") ? String(option.help.dropLast()) : option.help
        return "\(sentence) (default \(value))."
    }

    static func optionLabel(_ option: any OptionDeclaration) -> String {
        option.names.joined(separator: ", ") + (option.placeholder.map { " <\($0)>" } ?? "")
    }

    static func text(for command: any Command.Type) -> String {
        text(for: CommandRoute(command))
    }

    /// A command's help; one with subcommands lists them, and its usage shows how to reach them.
    static func text(for route: CommandRoute) -> String {
        let command = route.command
        var out = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usageLine(route))\n"
        let children = route.children
        if !children.isEmpty { out += "       \(route.title) <subcommand>\n" }
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for arg in command.arguments { out += row("<\(arg.name)>", arg.help) }
        }
        out += "\nOPTIONS:\n"
        for option in command.options { out += row(optionLabel(option), optionHelp(option)) }
        out += row("-h, --help", "Show help information.")
        if !children.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for child in children { out += row(child.command.name, child.command.abstract) }
            out += "\n  See 'piper help \(route.names.joined(separator: " ")) <subcommand>' for detailed help.\n"
        }
        return out
    }

    static func toolText(commands: [any Command.Type], version: String) -> String {
        var out = "OVERVIEW: \(toolAbstract)\n\nVersion \(version).\n"
        out += "\nUSAGE: piper <subcommand>\n"
        out += "\nOPTIONS:\n"
        out += row("--version", "Show the version.")
        out += row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for command in commands { out += row(command.name, command.abstract) }
        out += row("help", "Show help for a subcommand (--man prints the manual page).")
        out += "\n  See 'piper help <subcommand>' for detailed help.\n"
        return out
    }

    /// The README's command table, one row per command and subcommand, from the declarations.
    static func markdownTable(commands: [any Command.Type]) -> String {
        var out = "| command | what it does |\n|---|---|\n"
        for route in CommandRoute.all(commands) {
            let usage = ([route.title] + synopsis(route.command, placeholderBrackets: false)).joined(separator: " ")
            out += "| `\(usage.replacingOccurrences(of: "|", with: "\\|"))` | \(route.command.abstract) |\n"
        }
        return out
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "\n" + String(repeating: " ", count: 26)
        return "  \(padded)\(help)\n"
    }
}
