import PiperCore

/// Parses `args` (after the command name) against a command's declarations.
/// Supports `--name value`, `--name=value`, `--` to end options, and `-` as a positional.
func parseArguments(_ args: [String], options: [any OptionDeclaration], arguments: [ArgumentSpec]) throws -> RawArguments {
    var parsed = RawArguments()
    var index = 0
    var onlyPositionals = false
    func lookup(_ name: String) -> (any OptionDeclaration)? { options.first { $0.names.contains(name) } }

    while index < args.count {
        let arg = args[index]
        index += 1
        if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
            parsed.positionals.append(arg)
            continue
        }
        if arg == "--" { onlyPositionals = true; continue }
        var name = arg
        var inlineValue: String?
        if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
            name = String(arg[..<eq])
            inlineValue = String(arg[arg.index(after: eq)...])
        }
        guard let option = lookup(name) else {
            let hint = Spelling.closest(to: name, among: options.flatMap { $0.names }).map { ". Did you mean '\($0)'?" } ?? ""
            throw UsageError("Unknown option '\(name)'\(hint)")
        }
        guard let placeholder = option.placeholder else {
            if inlineValue != nil { throw UsageError("\(name) does not take a value") }
            parsed.values[option.primaryName, default: []] = [""]
            continue
        }
        let value: String
        if let inline = inlineValue {
            value = inline
        } else {
            guard index < args.count else { throw UsageError("Missing value for \(name) <\(placeholder)>") }
            value = args[index]
            index += 1
        }
        parsed.values[option.primaryName, default: []].append(value)
    }

    let required = arguments.filter { !$0.optional }
    if parsed.positionals.count < required.count {
        throw UsageError("Missing expected argument '<\(required[parsed.positionals.count].name)>'")
    }
    if !arguments.contains(where: \.variadic), parsed.positionals.count > arguments.count {
        throw UsageError("Unexpected argument '\(parsed.positionals[arguments.count])'")
    }
    return parsed
}
