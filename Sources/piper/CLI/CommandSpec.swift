import PiperCore

/// What a command accepts, used both to parse the command line and to print help.
struct OptionSpec: Sendable {
    enum Kind: Sendable { case flag, value(String) }   // value(placeholder), e.g. "URL"
    let names: [String]          // ["--json"] or ["-o", "--output"]
    let kind: Kind
    let help: String
    var repeatable = false

    static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, kind: .flag, help: help)
    }
    static func value(_ names: String..., placeholder: String, help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: names, kind: .value(placeholder), help: help, repeatable: repeatable)
    }
    var primaryName: String { names.last ?? "" }
}

struct ArgumentSpec: Sendable {
    let name: String             // "LINK"
    let help: String
    var optional = false
    var variadic = false
}

/// A command: a type with a name, an abstract, options, `init(parsed:)` (validation) and `run()`.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    static var discussion: String? { get }
    static var options: [OptionSpec] { get }
    static var arguments: [ArgumentSpec] { get }
    /// Validates the parsed command line; throws `UsageError` for bad combinations.
    init(parsed: ParsedArguments) throws
    /// Runs the command and returns its exit status.
    func run() async throws -> ExitCode
}

extension Command {
    /// Validates and runs; kept generic so the funnel never opens an existential initializer.
    static func execute(_ parsed: ParsedArguments) async throws -> ExitCode {
        try await Self(parsed: parsed).run()
    }
    static var discussion: String? { nil }
    static var arguments: [ArgumentSpec] { [] }
}

/// The result of parsing one command's arguments against its spec.
struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// A value option parsed as an integer, with a usage error naming the option otherwise.
    func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// At most one of the named flags may be given.
    func exclusive(_ names: String...) throws -> String? {
        let given = names.filter { flags.contains($0) }
        if given.count > 1 { throw UsageError("\(given.joined(separator: " and ")) cannot be used together") }
        return given.first
    }
}
