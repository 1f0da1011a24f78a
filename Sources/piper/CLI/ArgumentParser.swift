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
            let hint = Suggestion.closest(to: name, among: options.flatMap { $0.names }).map { ". Did you mean '\($0)'?" } ?? ""
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

/// "Did you mean": the closest known word by edit distance, when it is close enough to be a typo.
enum Suggestion {
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, min(2, word.count / 3))
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
