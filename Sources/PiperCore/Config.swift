import Foundation

/// Piper's resolved settings. `backendBaseURL` is the one place every use reads the backend from.
public struct Config: Sendable, Equatable {
    /// The embedded default backend: https, no trailing slash. Operators point Piper at their own
    /// `piper serve` with `--backend`, `PIPER_BACKEND_URL` or `config.json`.
    public static let defaultBackendBaseURL = URL(string: "https://piper.example.com")!

    public var backendBaseURL: URL
    /// Where `backendBaseURL` came from, for `piper config` and error messages.
    public var backendSource: Source
    public var state: StateFolder

    public enum Source: String, Sendable, Equatable {
        case flag = "--backend", environment = "PIPER_BACKEND_URL", configFile = "config.json", builtIn = "default"
    }

    public init(backendBaseURL: URL = Config.defaultBackendBaseURL, backendSource: Source = .builtIn, state: StateFolder) {
        self.backendBaseURL = backendBaseURL
        self.backendSource = backendSource
        self.state = state
    }

    /// Resolves the config: `--backend` wins, then `PIPER_BACKEND_URL`, then `config.json`'s
    /// `backendURL`, then the built-in default. Every override is validated.
    public static func load(backendFlag: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        let state = StateFolder.resolve(environment: environment)
        if let flag = backendFlag {
            return Config(backendBaseURL: try validateBackendURL(flag, from: .flag), backendSource: .flag, state: state)
        }
        if let env = environment["PIPER_BACKEND_URL"], !env.isEmpty {
            return Config(backendBaseURL: try validateBackendURL(env, from: .environment), backendSource: .environment, state: state)
        }
        if let file = try ConfigFile.read(state.configFile), let url = file.backendURL {
            return Config(backendBaseURL: try validateBackendURL(url, from: .configFile), backendSource: .configFile, state: state)
        }
        return Config(state: state)
    }

    /// An override must be an absolute https URL, or http for a loopback host. A trailing slash
    /// is stripped; query and fragment are refused.
    public static func validateBackendURL(_ text: String, from source: Source) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let comps = URLComponents(string: trimmed), let scheme = comps.scheme?.lowercased(),
              let host = comps.host, !host.isEmpty else {
            throw ConfigError.invalidBackend(text, source, "not an absolute URL")
        }
        guard comps.query == nil, comps.fragment == nil, comps.user == nil else {
            throw ConfigError.invalidBackend(text, source, "it must not have a query, fragment or user")
        }
        switch scheme {
        case "https": break
        case "http":
            guard isLoopback(host) else {
                throw ConfigError.invalidBackend(text, source, "http is only allowed for loopback hosts; use https")
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

    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h.hasSuffix(".localhost") || h == "::1" { return true }
        let parts = h.split(separator: ".")
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

public enum ConfigError: PiperError, Equatable {
    case invalidBackend(String, Config.Source, String)
    case unreadableConfigFile(String, String)

    public var description: String {
        switch self {
        case .invalidBackend(let value, let source, let why):
            return "Invalid backend URL '\(value)' from \(source.rawValue): \(why)"
        case .unreadableConfigFile(let path, let why):
            return "Cannot read \(path): \(why)"
        }
    }
    public var category: ErrorCategory { .usage }
}

/// The optional `config.json` in the state folder.
public struct ConfigFile: Codable, Sendable, Equatable {
    public var backendURL: String?
    /// Default library folder for media shares (`piper share --into` overrides it).
    public var defaultPlacement: String?

    public init(backendURL: String? = nil, defaultPlacement: String? = nil) {
        self.backendURL = backendURL
        self.defaultPlacement = defaultPlacement
    }

    public static func read(_ file: URL) throws -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: Data(contentsOf: file))
        } catch let error as DecodingError {
            throw ConfigError.unreadableConfigFile(file.path, "invalid JSON (\(Self.describe(error)))")
        } catch {
            throw ConfigError.unreadableConfigFile(file.path, "\(error.localizedDescription)")
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
