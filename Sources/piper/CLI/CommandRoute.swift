import PiperCore

/// A command as the command line names it: the words from the tool down (`library`, `rm`) and
/// the type that runs. Help, usage errors, completions and the man page speak of a command by
/// its route, so a subcommand reads `piper library rm` everywhere, and a command's actions are
/// types of their own (each with its options and help) instead of positional words it checks.
struct CommandRoute: Sendable {
    let command: any Command.Type
    /// `["library", "rm"]`.
    let names: [String]

    init(_ command: any Command.Type) {
        self.init(command, names: [command.name])
    }

    private init(_ command: any Command.Type, names: [String]) {
        self.command = command
        self.names = names
    }

    /// `piper library rm`.
    var title: String { (["piper"] + names).joined(separator: " ") }

    /// The command's subcommands, each a route one word longer.
    var children: [CommandRoute] {
        command.subcommands.map { CommandRoute($0, names: names + [$0.name]) }
    }

    /// This route, then every route below it, depth first in declaration order.
    var tree: [CommandRoute] { [self] + children.flatMap { $0.tree } }

    /// Every route of the tool, in the order `piper --help` lists its commands.
    static func all(_ commands: [any Command.Type]) -> [CommandRoute] {
        commands.flatMap { CommandRoute($0).tree }
    }

    /// "rm or feed", "retry, cancel or rm": the subcommands, as a usage error lists them.
    var childList: String {
        let words = command.subcommands.map { $0.name }
        guard let last = words.last else { return "" }
        return words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + last : last
    }

    /// The command line after the command's name, followed down the subcommand tree.
    struct Descent: Sendable {
        /// The deepest command the words name.
        let route: CommandRoute
        /// The arguments for it: everything but the subcommand words.
        let rest: [String]
        /// A word where a subcommand was due that names none (the route takes no positionals).
        let unknownAction: String?
    }

    /// Follows `args` down: the first positional word names a subcommand, which takes every other
    /// argument, those before the word too (so `piper library --library DIR rm ITEM` means what
    /// it did when actions were positionals). Values of options that take one are skipped, by
    /// the declarations of this command and its subcommands; an unknown option counts as a flag.
    func descend(_ args: [String]) -> Descent {
        let children = self.children
        if children.isEmpty { return Descent(route: self, rest: args, unknownAction: nil) }
        guard let index = Self.firstPositional(args, options: command.options + children.flatMap { $0.command.options }) else {
            return Descent(route: self, rest: args, unknownAction: nil)
        }
        let word = args[index]
        guard let child = children.first(where: { $0.command.name == word }) else {
            return Descent(route: self, rest: args, unknownAction: command.arguments.isEmpty ? word : nil)
        }
        var rest = args
        rest.remove(at: index)
        return child.descend(rest)
    }

    /// The index of the first argument that is neither an option nor an option's value.
    private static func firstPositional(_ args: [String], options: [any OptionDeclaration]) -> Int? {
        var index = 0
        while index < args.count {
            let arg = args[index]
            if arg == "--" { return index + 1 < args.count ? index + 1 : nil }
            if arg == "-" || !arg.hasPrefix("-") { return index }
            let takesValue = !arg.contains("=") && options.contains { $0.names.contains(arg) && $0.placeholder != nil }
            index += takesValue ? 2 : 1
        }
        return nil
    }
}
