/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum Help {
    static let toolAbstract = "Share a link, it lands where it belongs: media into your library, articles into Instapaper."

    static func usageLine(_ command: any Command.Type) -> String {
        var parts = ["piper", command.name]
        for option in command.options where option.primaryName != "--help" {
            switch option.kind {
            case .flag: parts.append("[\(option.primaryName)]")
            case .value(let p): parts.append("[\(option.primaryName) <\(p)>]")
            }
        }
        for arg in command.arguments {
            let base = "<\(arg.name)>" + (arg.variadic ? " ..." : "")
            parts.append(arg.optional ? "[\(base)]" : base)
        }
        return parts.joined(separator: " ")
    }

    static func text(for command: any Command.Type) -> String {
        var out = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usageLine(command))\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for arg in command.arguments { out += row("<\(arg.name)>", arg.help) }
        }
        out += "\nOPTIONS:\n"
        for option in command.options {
            var label = option.names.joined(separator: ", ")
            if case .value(let p) = option.kind { label += " <\(p)>" }
            out += row(label, option.help)
        }
        out += row("-h, --help", "Show help information.")
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
        out += row("help", "Show help for a subcommand.")
        out += "\n  See 'piper help <subcommand>' for detailed help.\n"
        return out
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "\n" + String(repeating: " ", count: 26)
        return "  \(padded)\(help)\n"
    }
}
