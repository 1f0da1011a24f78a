import PiperCore

/// Parses `args` (after the command name) against a command's spec.
/// Supports `--name value`, `--name=value`, `--` to end options, and `-` as a positional.
func parseArguments(_ args: [String], options: [OptionSpec], arguments: [ArgumentSpec]) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    func lookup(_ name: String) -> OptionSpec? { options.first { $0.names.contains(name) } }

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
        guard let spec = lookup(name) else { throw UsageError("Unknown option '\(name)'") }
        switch spec.kind {
        case .flag:
            if inlineValue != nil { throw UsageError("\(name) does not take a value") }
            parsed.flags.insert(spec.primaryName)
        case .value(let placeholder):
            let value: String
            if let inline = inlineValue {
                value = inline
            } else {
                guard index < args.count else { throw UsageError("Missing value for \(name) <\(placeholder)>") }
                value = args[index]
                index += 1
            }
            if !spec.repeatable, parsed.values[spec.primaryName] != nil {
                throw UsageError("\(name) was given more than once")
            }
            parsed.values[spec.primaryName, default: []].append(value)
        }
    }

    let required = arguments.filter { !$0.optional }.count
    let variadic = arguments.contains { $0.variadic }
    if parsed.positionals.count < required {
        let missing = arguments.filter { !$0.optional }[parsed.positionals.count]
        throw UsageError("Missing expected argument '<\(missing.name)>'")
    }
    if !variadic, parsed.positionals.count > arguments.count {
        throw UsageError("Unexpected argument '\(parsed.positionals[arguments.count])'")
    }
    return parsed
}
