import Foundation

/// Piper's resolved settings. `backendBaseURL` is the one place every use reads the backend from.
public struct Config: Sendable, Equatable {
    /// The embedded default backend: https, no trailing slash. Operators point Piper at their own
    /// `piper serve` with `--backend`, `PIPER_BACKEND_URL` or `config.json`.
    public static let defaultBackendBaseURL = URL(string: "https://piper.example.com")!

    /// The backend's base URL; saves go to `<backendBaseURL>/save`.
    public var backendBaseURL: URL
    /// Where `backendBaseURL` came from, for `piper config` and error messages.
    public var backendSource: Source
    /// The state folder (cookies, downloads, inbox, library).
    public var state: StateFolder
    /// The config file this run reads and `piper config set` writes.
    public var location: ConfigLocation
    /// Said once on stderr when the config came from the old location in the data folder.
    public var note: String?
    /// What the user should hear about the config file before anything else: unknown keys
    /// (with "did you mean"), the old location still read, a backend reached without encryption.
    public var notices: [String] { file.warnings + (note.map { [$0] } ?? []) + (Self.plainHTTPNote(backendBaseURL).map { [$0] } ?? []) }
    /// The file's settings (empty when there is no file).
    public var file: ConfigFile

    /// Whether a backend was named (flag, environment or file) rather than left at the placeholder.
    public var isBackendConfigured: Bool { backendSource != .builtIn }

    /// Where the backend URL came from, so messages can say what to change.
    public enum Source: String, Sendable, Equatable {
        case flag = "--backend", environment = "PIPER_BACKEND_URL", configFile = "config.json", builtIn = "default"
        /// `piper config set backend VALUE`: the value came from the command line, not the file.
        case configSet = "the command line"
    }

    /// A configuration with the given backend and state folder.
    public init(backendBaseURL: URL = Config.defaultBackendBaseURL, backendSource: Source = .builtIn, state: StateFolder,
                location: ConfigLocation? = nil, file: ConfigFile = ConfigFile(), note: String? = nil) {
        self.backendBaseURL = backendBaseURL
        self.backendSource = backendSource
        self.state = state
        self.location = location ?? ConfigLocation(file: state.configFile, legacy: nil)
        self.file = file
        self.note = note
    }

    /// Resolves the config: `--backend` wins, then `PIPER_BACKEND_URL`, then `config.json`'s
    /// `backendURL`, then the built-in default. Every override is validated. The file is
    /// `ConfigLocation`'s (the old one in the data folder is still read, with a note).
    public static func load(backendFlag: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        let state = StateFolder.resolve(environment: environment)
        let location = ConfigLocation.resolve(environment: environment)
        var config = Config(state: state, location: location)
        if let file = try ConfigFile.read(location.file) {
            config.file = file
        } else if let legacy = location.legacy, let file = try ConfigFile.read(legacy) {
            config.file = file
            config.note = "Note: reading \(legacy.path); move it to \(location.file.path), where Piper now looks first."
        }
        if let flag = backendFlag {
            config.backendBaseURL = try validateBackendURL(flag, from: .flag)
            config.backendSource = .flag
        } else if let env = environment["PIPER_BACKEND_URL"], !env.isEmpty {
            config.backendBaseURL = try validateBackendURL(env, from: .environment)
            config.backendSource = .environment
        } else if let url = config.file.backendURL {
            config.backendBaseURL = try validateBackendURL(url, from: .configFile)
            config.backendSource = .configFile
        }
        return config
    }

    /// An override must be an absolute https URL, or http for a loopback or home-network host
    /// (`isPrivateNetworkHost`: a home server rarely has a certificate, and its LAN is the
    /// user's own). A trailing slash is stripped; query and fragment are refused, and so is an
    /// address that only means "every interface" to a server.
    public static func validateBackendURL(_ text: String, from source: Source) throws -> URL {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        guard let comps = URLComponents(string: trimmed), let scheme = comps.scheme?.lowercased(),
              let host = comps.host, !host.isEmpty else {
            throw ConfigError.invalidBackend(text, source, "not an absolute URL")
        }
        guard comps.query == nil, comps.fragment == nil, comps.user == nil else {
            throw ConfigError.invalidBackend(text, source, "it must not have a query, fragment or user")
        }
        let bare = host.lowercased().trimmingScalars { $0 == "[" || $0 == "]" }
        if bare == "0.0.0.0" || bare == "::" {
            throw ConfigError.invalidBackend(text, source, "\(host) is where a server listens on every interface, not an address "
                                             + "to reach it at; use this machine's name or address (piper serve --host 0.0.0.0 prints them)")
        }
        switch scheme {
        case "https": break
        case "http":
            guard isLoopback(host) || isPrivateNetworkHost(host) else {
                throw ConfigError.invalidBackend(text, source, "http is only allowed for loopback and home-network hosts "
                                                 + "(10.x, 172.16-31.x, 192.168.x, fd00::/8, .local, .lan); use https")
            }
        default:
            throw ConfigError.invalidBackend(text, source, "the scheme must be https")
        }
        var normalized = trimmed
        while normalized.hasSuffix("/") { normalized.removeLast() }
        guard let url = URL(string: normalized) else {
            throw ConfigError.invalidBackend(text, source, "not an absolute URL")
        }
        return url
    }

    /// True for a host on the user's own network: RFC 1918 and link-local IPv4, IPv6 unique
    /// local and link-local addresses, and the names home networks give (`.local`, `.lan`,
    /// `.home.arpa`, `.internal`).
    public static func isPrivateNetworkHost(_ host: String) -> Bool {
        let h = host.lowercased().trimmingScalars { $0 == "[" || $0 == "]" }
        if [".local", ".lan", ".home.arpa", ".internal"].contains(where: { h.hasSuffix($0) }) { return true }
        if h.contains(":") { return h.hasPrefix("fc") || h.hasPrefix("fd") || h.hasPrefix("fe80") }
        let parts = h.split(separator: ".").compactMap { UInt8($0) }
        guard parts.count == 4, h.split(separator: ".").count == 4 else { return false }
        switch (parts[0], parts[1]) {
        case (10, _), (192, 168), (169, 254): return true
        case (172, 16...31): return true
        default: return false
        }
    }

    /// One line for a backend reached over plain http beyond this machine, or nil.
    public static func plainHTTPNote(_ url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", let host = url.host, !isLoopback(host) else { return nil }
        return "Note: the backend \(url.absoluteString) is reached over plain http: fine on your own network, use https beyond it."
    }

    /// True for `localhost`, `127.0.0.0/8` and `::1` (hosts that may use plain http).
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingScalars { $0 == "[" || $0 == "]" }
        if h == "localhost" || h.hasSuffix(".localhost") || h == "::1" { return true }
        let parts = h.split(separator: ".")
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// A configuration that cannot be used, with the sentence that says how to fix it.
public enum ConfigError: PiperError, Equatable {
    case invalidBackend(String, Config.Source, String)
    case unreadableConfigFile(String, String)
    /// A key in config.json Piper does not know, with the closest known one.
    case unknownKey(String, file: String, suggestion: String?)
    /// An article share with no backend named anywhere.
    case noBackend
    /// A value `piper config set` refuses, with the reason.
    case invalidValue(String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .invalidBackend(let value, let source, let why):
            return "Invalid backend URL '\(value)' from \(source.rawValue): \(why)"
        case .unreadableConfigFile(let path, let why):
            return "Cannot read \(path): \(why)"
        case .unknownKey(let key, let file, let suggestion):
            let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
            return "Unknown key '\(key)' in \(file).\(hint) Known keys: \(ConfigFile.namedKeys.joined(separator: ", ")), and the agent.* and download.* numbers 'piper config' lists."
        case .invalidValue(let why):
            return "Invalid value: \(why)"
        case .noBackend:
            return "No backend is configured, so the article cannot be saved. Run 'piper serve' and point Piper at it "
                + "('piper config set backend http://127.0.0.1:8080' or PIPER_BACKEND_URL), or name one with --backend URL."
        }
    }
    /// An invalid backend or unreadable file is a usage error; an unknown key or no backend, configuration.
    public var category: ErrorCategory {
        switch self {
        case .invalidBackend, .unreadableConfigFile, .invalidValue: return .usage
        case .unknownKey, .noBackend: return .configuration
        }
    }
}

/// The save port when no backend is named anywhere: every save fails with
/// `ConfigError.noBackend`, the sentence that says how to name one.
public struct UnconfiguredBackend: SaveClient {
    /// The unconfigured save port.
    public init() {}
    /// Always throws `ConfigError.noBackend`.
    public func save(_ article: ExtractedArticle) throws -> URL { throw ConfigError.noBackend }
}
