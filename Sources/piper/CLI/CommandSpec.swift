import PiperCore

/// A positional argument, for parsing and help.
struct ArgumentSpec: Sendable {
    let name: String             // "LINK"
    let help: String
    var optional = false
    var variadic = false
}

/// A command: a type with a name, an abstract, typed options, `init(_:)` (validation) and `run()`.
protocol Command: Sendable {
    /// The command's options, declared once as stored properties.
    associatedtype Options: OptionGroup
    static var name: String { get }
    static var abstract: String { get }
    static var discussion: String? { get }
    static var arguments: [ArgumentSpec] { get }
    /// The actions this command groups, each a command of its own (`library rm`, `library feed`)
    /// with its options and help; the first positional word picks one (`CommandRoute.descend`).
    static var subcommands: [any Command.Type] { get }
    /// Validates the parsed command line; throws `UsageError` for bad combinations.
    init(_ parsed: Parsed<Options>) throws
    /// Runs the command and returns its exit status.
    func run() async throws -> ExitCode
    /// Starts work the command is sure to need, from the command line as the parser split it
    /// (before the options are typed and validated), so it runs beside that; `finish` ends it.
    static func prepare(_ raw: RawArguments)
    /// Waits for what `prepare` started; the funnel calls it on every way out.
    static func finish()
}

extension Command {
    static func prepare(_ raw: RawArguments) {}
    static func finish() {}
    static var discussion: String? { nil }
    static var arguments: [ArgumentSpec] { [] }
    static var subcommands: [any Command.Type] { [] }
    /// The command's own options, then the ones every command takes.
    static var options: [any OptionDeclaration] { ownOptions + CommonOptions.declarations }
    /// The command's own options, without the common ones.
    static var ownOptions: [any OptionDeclaration] { Options.declarations }

    /// Parses, validates and runs; kept generic so the funnel never opens an existential initializer.
    static func execute(_ raw: RawArguments) async throws -> ExitCode {
        try await Self(Parsed<Options>(raw)).run()
    }
}

/// What the parser found on the command line, before the options' types are applied.
struct RawArguments: Sendable, Equatable {
    /// Every value given for an option, by primary name; a flag records an empty value.
    var values: [String: [String]] = [:]
    var positionals: [String] = []
}

/// A command's parsed command line: each option read by key path with its declared type
/// (`parsed.json`, `parsed.ttl`), the positionals, and the common options.
@dynamicMemberLookup
struct Parsed<Group: OptionGroup>: Sendable {
    let raw: RawArguments
    private let values: [String: any Sendable]
    let common: CommonValues

    /// Applies every declared option's parser; a bad value is a `UsageError` naming the option.
    init(_ raw: RawArguments) throws {
        self.raw = raw
        var values: [String: any Sendable] = [:]
        for option in Group.declarations {
            values[option.primaryName] = try option.resolve(raw.values[option.primaryName] ?? [])
        }
        self.values = values
        common = try CommonValues(raw)
    }

    var positionals: [String] { raw.positionals }

    subscript<Value>(dynamicMember path: KeyPath<Group, Option<Value>>) -> Value {
        let option = Group()[keyPath: path]
        return values[option.primaryName] as? Value ?? option.defaultValue
    }

    /// Whether the option appeared on the command line (a default is not "given").
    func given<Value>(_ path: KeyPath<Group, Option<Value>>) -> Bool {
        raw.values[Group()[keyPath: path].primaryName] != nil
    }

    /// At most one of the flags may be given; returns the position of the one given, if any.
    func exclusive(_ paths: KeyPath<Group, Option<Bool>>...) throws -> Int? {
        let given = paths.indices.filter { self.given(paths[$0]) }
        if given.count > 1 {
            let names = given.map { Group()[keyPath: paths[$0]].primaryName }
            throw UsageError("\(names.joined(separator: " and ")) cannot be used together")
        }
        return given.first
    }
}

/// The values of the options every command takes.
struct CommonValues: Sendable, Equatable {
    var quiet = false
    var verbose = false

    init(_ raw: RawArguments) throws {
        let group = CommonOptions()
        quiet = raw.values[group.quiet.primaryName] != nil
        verbose = raw.values[group.verbose.primaryName] != nil
        if quiet && verbose { throw UsageError("--quiet and --verbose cannot be used together") }
    }

    init() {}
}
