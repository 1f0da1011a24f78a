import Foundation

/// `piper help --man`: the manual page in roff, generated from the command declarations.
enum ManPage {
    static func text(commands: [any Command.Type], version: String) -> String {
        var out = ".TH PIPER 1 \"\" \"piper \(version)\" \"User Commands\"\n"
        out += ".SH NAME\npiper \\- \(escape(Help.toolAbstract))\n"
        out += ".SH SYNOPSIS\n.B piper\n.I subcommand\n[options]\n"
        out += ".SH COMMON OPTIONS\n"
        for option in CommonOptions.declarations { out += item(option) }
        out += ".TP\n.B \\-h, \\-\\-help\nShow help information.\n"
        for route in CommandRoute.all(commands) {
            let command = route.command
            out += ".SH COMMAND: \(route.names.joined(separator: " ").uppercased())\n"
            out += escape(Help.usageLine(route)) + "\n.PP\n" + escape(command.abstract) + "\n"
            if let discussion = command.discussion { out += ".PP\n" + escape(discussion) + "\n" }
            for arg in command.arguments { out += ".TP\n.I \(arg.name)\n\(escape(arg.help))\n" }
            for option in command.ownOptions { out += item(option) }
        }
        out += ".SH EXIT STATUS\n0 success, 64 usage, 65 bad input data, 69 unavailable, 78 configuration, 1 otherwise.\n"
        out += ".SH ENVIRONMENT\nPIPER_HOME, PIPER_BACKEND_URL, XDG_CONFIG_HOME, XDG_DATA_HOME, NO_COLOR.\n"
        return out
    }

    private static func item(_ option: any OptionDeclaration) -> String {
        ".TP\n.B \(escape(Help.optionLabel(option)))\n\(escape(Help.optionHelp(option)))\n"
    }

    /// Escapes roff: backslashes and hyphens, and a leading dot or quote on any line.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var l = String(line).replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            l = l.trimmingCharacters(in: .whitespaces)
            if l.hasPrefix(".") || l.hasPrefix("'") { l = "\\&" + l }
            return l
        }.joined(separator: "\n")
    }
}
