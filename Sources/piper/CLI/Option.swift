import PiperCore

/// What help, completions, the man page and the parser need to know about one option,
/// whatever the type of its value.
protocol OptionDeclaration: Sendable {
    /// `["--json"]` or `["-a", "--batch-file"]`; the last one is the primary name.
    var names: [String] { get }
    /// nil for a flag; the value's placeholder (`URL`, `N`) otherwise.
    var placeholder: String? { get }
    var help: String { get }
    /// The default as help prints it, when there is one worth printing.
    var defaultText: String? { get }
    /// The values a shell may complete (a choice's cases).
    var choices: [String] { get }
    var repeatable: Bool { get }
    /// Turns every value given on the command line (in order; empty when not given) into the
    /// option's typed value.
    func resolve(_ given: [String]) throws -> any Sendable
}

extension OptionDeclaration {
    var primaryName: String { names.last ?? "" }
    var isFlag: Bool { placeholder == nil }
}

/// One typed option, declared once: names, help, default and the parser from text to value.
/// Commands hold their options as stored properties of an `OptionGroup` and read them back by
/// key path, so an option that is not declared cannot be read.
struct Option<Value: Sendable>: OptionDeclaration {
    let names: [String]
    let placeholder: String?
    let help: String
    let defaultValue: Value
    let defaultText: String?
    var choices: [String] = []
    var repeatable = false
    let parse: @Sendable ([String]) throws -> Value

    func resolve(_ given: [String]) throws -> any Sendable { try parse(given) }
}

/// The ways to declare an option: `var json = Opt.flag("--json", help: "...")`.
enum Opt {
    /// A flag: true when given.
    static func flag(_ names: String..., help: String) -> Option<Bool> {
        OptionRecorder.record(Option(names: names, placeholder: nil, help: help, defaultValue: false, defaultText: nil) { !$0.isEmpty })
    }

    /// A single value with a default. `convert` returns nil for text it refuses; the usage error
    /// then says what the option takes (`expects`).
    static func value<Value: Sendable>(_ names: String..., placeholder: String, help: String, default value: Value,
                                       defaultText: String? = nil, expects: String,
                                       convert: @escaping @Sendable (String) -> Value?) -> Option<Value> {
        let name = names.last ?? ""
        return OptionRecorder.record(Option(names: names, placeholder: placeholder, help: help, defaultValue: value,
                                            defaultText: defaultText ?? "\(value)") { given in
            guard let text = try single(given, name) else { return value }
            guard let converted = convert(text) else { throw UsageError("\(name) takes \(expects), not '\(text)'") }
            return converted
        })
    }

    /// A whole number in `range`, with a default.
    static func int(_ names: String..., placeholder: String = "N", help: String, default value: Int,
                    in range: ClosedRange<Int>) -> Option<Int> {
        let name = names.last ?? ""
        return OptionRecorder.record(Option<Int>(names: names, placeholder: placeholder, help: help, defaultValue: value,
                                                 defaultText: "\(value)") { given in
            guard let text = try single(given, name) else { return value }
            guard let n = Int(text), range.contains(n) else {
                throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return n
        })
    }

    /// One of an enumeration's cases, by raw value.
    static func choice<Value>(_ names: String..., placeholder: String = "MODE", help: String, default value: Value) -> Option<Value>
    where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
        let name = names.last ?? ""
        let cases = Value.allCases.map(\.rawValue)
        let listed = cases.count > 1 ? cases.dropLast().joined(separator: ", ") + " or " + (cases.last ?? "") : cases.joined()
        var option = Option(names: names, placeholder: placeholder, help: help, defaultValue: value,
                            defaultText: value.rawValue) { given in
            guard let text = try single(given, name) else { return value }
            guard let chosen = Value(rawValue: text) else { throw UsageError("\(name) takes \(listed), not '\(text)'") }
            return chosen
        }
        option.choices = cases
        return OptionRecorder.record(option)
    }

    /// A text value that may be absent (no default worth printing).
    static func text(_ names: String..., placeholder: String, help: String) -> Option<String?> {
        let name = names.last ?? ""
        return OptionRecorder.record(Option<String?>(names: names, placeholder: placeholder, help: help, defaultValue: nil, defaultText: nil) {
            try single($0, name)
        })
    }

    /// A text value that may be given several times, in order.
    static func list(_ names: String..., placeholder: String, help: String) -> Option<[String]> {
        var option = Option<[String]>(names: names, placeholder: placeholder, help: help, defaultValue: [], defaultText: nil) { $0 }
        option.repeatable = true
        return OptionRecorder.record(option)
    }

    /// The one value given, nil when none; a second one is a usage error.
    private static func single(_ given: [String], _ name: String) throws -> String? {
        if given.count > 1 { throw UsageError("\(name) was given more than once") }
        return given.first
    }
}

/// A command's options: a struct whose stored properties are `Option`s, in help order.
/// The declarations are read from the properties themselves, so each option is written once.
protocol OptionGroup: Sendable {
    init()
}

extension OptionGroup {
    /// Every option the group declares, in declaration order: `Self()` runs the properties'
    /// initializers in that order, and each `Opt` builder reports the option it made to the
    /// recorder this scope binds. (Reading them back with `Mirror` cast every property to the
    /// protocol at run time, and the first cast of each type searched every conformance in the
    /// executable: about a tenth of a `piper share`'s instructions.)
    static var declarations: [any OptionDeclaration] {
        let recorder = OptionRecorder()
        OptionRecorder.$current.withValue(recorder) { _ = Self() }
        return recorder.options
    }
}

/// Collects the options an `OptionGroup`'s initializer makes (`OptionGroup.declarations`).
/// Only the thread that runs the initializer inside `withValue` appends, and `declarations`
/// reads the list after it returned: no two threads touch one recorder.
final class OptionRecorder: @unchecked Sendable {
    @TaskLocal static var current: OptionRecorder?
    private(set) var options: [any OptionDeclaration] = []

    /// `option`, recorded when a group's declarations are being read.
    static func record<Value: Sendable>(_ option: Option<Value>) -> Option<Value> {
        current?.options.append(option)
        return option
    }
}

/// For commands that take no options of their own.
struct NoOptions: OptionGroup {}

/// The options every command takes.
struct CommonOptions: OptionGroup {
    var quiet = Opt.flag("-q", "--quiet", help: "Print only errors and the command's data.")
    var verbose = Opt.flag("-v", "--verbose", help: "Print more detail on standard error.")
}
