import Foundation

/// Where the config file lives: `$PIPER_HOME/config.json` when PIPER_HOME is set (one folder
/// holds everything), else `$XDG_CONFIG_HOME/piper/config.json`, else `~/.config/piper/config.json`.
/// `legacy` is the old place in the data folder, still read when the new file is missing.
public struct ConfigLocation: Sendable, Equatable {
    /// The file read and written (`config.json`).
    public let file: URL
    /// An older location still read when `file` does not exist.
    public let legacy: URL?

    /// The configuration at `file`, falling back to `legacy` for reading.
    public init(file: URL, legacy: URL?) {
        self.file = file
        self.legacy = legacy
    }

    /// Resolves the location from an environment.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigLocation {
        let state = StateFolder.resolveBase(environment: environment)
        if let home = environment["PIPER_HOME"], !home.isEmpty { return ConfigLocation(file: state.configFile, legacy: nil) }
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        let file = base.appendingPathComponent("piper", isDirectory: true).appendingPathComponent("config.json")
        return ConfigLocation(file: file, legacy: state.configFile == file ? nil : state.configFile)
    }
}

/// The optional `config.json`. Unknown keys are an error naming the closest known key.
public struct ConfigFile: Codable, Sendable, Equatable {
    /// The backend's base URL, when the file names one.
    public var backendURL: String?
    /// Default library folder for media shares (`piper share --into` overrides it).
    public var defaultPlacement: String?
    /// The library folder (absolute, or `~/…`); `PIPER_LIBRARY` and `--library` win.
    public var library: String?
    /// Octal mode of library files (`0640`); folders get the same with `x` wherever `r` is set.
    /// Unset: the process umask decides (0644 and 0755 under the usual 022).
    public var libraryMode: String?
    /// Extra hosts whose pages are X pages (a mirror front end people read X through; a local
    /// name in tests), comma-separated; `PIPER_X_HOSTS` overrides it.
    public var xHosts: String?
    /// The agent's and downloader's numbers set in the file, by `Tunable` key
    /// (`"agent.concurrency": 4`); their environment variables override them.
    public var tunables: [String: Double] = [:]
    /// Keys the file holds that Piper does not know, each as a sentence with the closest known
    /// key ("did you mean"); the file is read without them.
    public var warnings: [String] = []

    enum CodingKeys: String, CodingKey { case backendURL, defaultPlacement, library, libraryMode, xHosts }

    /// The keys of the file's named settings.
    public static let namedKeys = ["backendURL", "defaultPlacement", "library", "libraryMode", "xHosts"]
    /// Every key the file may hold: the named settings and the tunables.
    public static let keys = namedKeys + Tunables.keys
    /// Short names `piper config set/unset` also takes.
    public static let aliases = ["backend": "backendURL", "placement": "defaultPlacement", "x-hosts": "xHosts"]

    /// A configuration file's contents.
    public init(backendURL: String? = nil, defaultPlacement: String? = nil, library: String? = nil, libraryMode: String? = nil) {
        self.backendURL = backendURL
        self.defaultPlacement = defaultPlacement
        self.library = library
        self.libraryMode = libraryMode
    }

    /// Reads and decodes `file`; nil when it does not exist, an error when it is malformed.
    public static func read(_ file: URL) throws -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConfigError.unreadableConfigFile(file.path, "permission denied, or not a file")
        }
        var warnings: [String] = []
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            for key in object.keys.sorted() where !keys.contains(key) {
                let unknown = ConfigError.unknownKey(key, file: file.path, suggestion: Spelling.closest(to: key, among: keys))
                warnings.append("Warning: \(unknown) It is ignored.")
            }
        }
        do {
            var read = try JSONDecoder().decode(ConfigFile.self, from: data)
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                for key in Tunables.keys {
                    guard let value = object[key] else { continue }
                    if let number = value as? NSNumber, !(value is Bool) {
                        read.tunables[key] = number.doubleValue
                    } else {
                        warnings.append("Warning: \(key) in \(file.path) must be a number; it is ignored.")
                    }
                }
            }
            read.warnings = warnings
            return read
        } catch let error as DecodingError {
            throw ConfigError.unreadableConfigFile(file.path, "invalid JSON (\(Self.describe(error)))")
        }
    }

    /// The file key for a name `piper config set` was given (a key or its alias), else an error
    /// with the closest name.
    public static func key(named name: String, file: URL) throws -> String {
        if keys.contains(name) { return name }
        if let key = aliases[name] { return key }
        let suggestion = Spelling.closest(to: name, among: keys + aliases.keys.sorted())
        throw ConfigError.unknownKey(name, file: file.path, suggestion: suggestion)
    }

    /// Sets (or, with nil, removes) `key` and writes the file atomically, creating its folder 0700.
    public mutating func set(_ key: String, to value: String?, in file: URL) throws {
        switch key {
        case "backendURL":
            if let value { _ = try Config.validateBackendURL(value, from: .configSet) }
            backendURL = value
        case "defaultPlacement": defaultPlacement = value
        case "library":
            if let value { _ = try LibrarySettings.folder(value, from: "config.json") }
            library = value
        case "libraryMode":
            if let value { _ = try LibrarySettings.modes(value, from: "config.json") }
            libraryMode = value
        case "xHosts":
            if let value {
                let hosts = Self.hostList(value)
                guard !hosts.isEmpty, hosts.allSatisfy({ !$0.contains("/") && !$0.contains(" ") && !$0.contains(":") }) else {
                    throw ConfigError.invalidValue("xHosts takes host names separated by commas (nitter.example,xcancel.com), not '\(value)'")
                }
                xHosts = hosts.joined(separator: ",")
            } else {
                xHosts = nil
            }
        default:
            guard let tunable = Tunables.named(key) else {
                throw ConfigError.unknownKey(key, file: file.path, suggestion: Spelling.closest(to: key, among: Self.keys))
            }
            if let value {
                switch tunable.parse(value) {
                case .success(let number): tunables[key] = number
                case .failure(let error): throw ConfigError.invalidValue(error.message)
                }
            } else {
                tunables[key] = nil
            }
        }
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try StateFolder.writeAtomically(try encoder.encode(self), to: file, mode: 0o600)
    }

    /// Host names from a comma-separated list, lowercased, blanks dropped.
    public static func hostList(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The named settings that are set, then the tunables, as one JSON object.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encodeIfPresent(backendURL, forKey: AnyKey("backendURL"))
        try container.encodeIfPresent(defaultPlacement, forKey: AnyKey("defaultPlacement"))
        try container.encodeIfPresent(library, forKey: AnyKey("library"))
        try container.encodeIfPresent(libraryMode, forKey: AnyKey("libraryMode"))
        try container.encodeIfPresent(xHosts, forKey: AnyKey("xHosts"))
        for (key, value) in tunables {
            if Tunables.named(key)?.kind == .integer, let whole = Int64(exactly: value) {
                try container.encode(whole, forKey: AnyKey(key))
            } else {
                try container.encode(value, forKey: AnyKey(key))
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            let path = c.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? c.debugDescription : "\(path): \(c.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// "Did you mean": the closest known word by edit distance (ignoring case), when it is close
/// enough to be a typo.
public enum Spelling {
    /// The candidate nearest to `word` by edit distance, when near enough to suggest ("did you mean").
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, min(2, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance over characters.
    public static func distance(_ a: String, _ b: String) -> Int {
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

extension TunableValues {
    /// The tunables in effect for a process: the config file's (where `ConfigLocation` finds it,
    /// the old location too) under the environment's. An unreadable file gives none of its
    /// values, and `notices` says so.
    public static func resolve(environment: [String: String]) -> TunableValues {
        let location = ConfigLocation.resolve(environment: environment)
        var fileValues: [String: Double] = [:]
        var problem: String?
        do {
            if let file = try ConfigFile.read(location.file) {
                fileValues = file.tunables
            } else if let legacy = location.legacy, let file = try ConfigFile.read(legacy) {
                fileValues = file.tunables
            }
        } catch {
            problem = "Warning: \(error); the agent and downloader use their defaults."
        }
        var values = TunableValues(file: fileValues, environment: environment)
        if let problem { values.add(notice: problem) }
        return values
    }
}
