import Foundation

/// The modes library files and folders are created with.
public enum LibraryModes: Sendable, Equatable {
    /// What the process umask leaves of 0666 (files) and 0777 (folders): 0644 and 0755 under the
    /// usual 022, so a media server running as another user can read the library.
    case umask
    /// `libraryMode`: this mode for files; folders get it with `x` wherever `r` is set.
    case fixed(file: Int)

    /// The folder mode for a file mode: search (`x`) wherever read is allowed.
    public static func folderMode(forFile mode: Int) -> Int {
        var folder = mode & 0o777
        if folder & 0o400 != 0 { folder |= 0o100 }
        if folder & 0o040 != 0 { folder |= 0o010 }
        if folder & 0o004 != 0 { folder |= 0o001 }
        return folder
    }
}

/// Where the library lives and how its files are created, with where each came from:
/// `--library DIR` (which the CLI passes on as `PIPER_LIBRARY`, so agents it starts agree),
/// else `PIPER_LIBRARY`, else `library` in the config file, else `library/` in the state folder.
/// `libraryMode` comes from the config file only.
public struct LibrarySettings: Sendable, Equatable {
    public var folder: URL
    public var folderSource: String
    public var modes: LibraryModes
    public var modeSource: String

    public static func resolve(state: StateFolder, environment: [String: String]) -> LibrarySettings {
        let file = (try? ConfigFile.read(ConfigLocation.resolve(environment: environment).file)) ?? nil
        var settings = LibrarySettings(folder: state.url.appendingPathComponent("library", isDirectory: true), folderSource: "default",
                                       modes: .umask, modeSource: "umask")
        if let env = environment["PIPER_LIBRARY"], !env.isEmpty, let folder = try? folder(env, from: "PIPER_LIBRARY", environment: environment) {
            settings.folder = folder
            settings.folderSource = "PIPER_LIBRARY"
        } else if let value = file?.library, let folder = try? folder(value, from: "config.json", environment: environment) {
            settings.folder = folder
            settings.folderSource = "config.json"
        }
        if let value = file?.libraryMode, let modes = try? modes(value, from: "config.json") {
            settings.modes = modes
            settings.modeSource = "config.json"
        }
        return settings
    }

    /// A library folder setting as a URL: an absolute path or `~/…` (relative paths are refused,
    /// since every process must find the same folder).
    public static func folder(_ text: String, from source: String,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        var path = text.trimmingCharacters(in: .whitespaces)
        if path == "~" || path.hasPrefix("~/") {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            path = home + path.dropFirst()
        }
        guard path.hasPrefix("/") else { throw LibrarySettingsError.relativeFolder(text, source) }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    /// `libraryMode` as modes: three or four octal digits, readable by the owner.
    public static func modes(_ text: String, from source: String) throws -> LibraryModes {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard (3...4).contains(digits.count), let mode = Int(digits, radix: 8), mode <= 0o777 else {
            throw LibrarySettingsError.badMode(text, source)
        }
        guard mode & 0o600 == 0o600 else { throw LibrarySettingsError.badMode(text, source) }
        return .fixed(file: mode)
    }
}

public enum LibrarySettingsError: PiperError, Equatable {
    case relativeFolder(String, String)
    case badMode(String, String)

    public var description: String {
        switch self {
        case .relativeFolder(let value, let source):
            return "The library folder '\(value)' from \(source) must be an absolute path (or start with ~/)"
        case .badMode(let value, let source):
            return "libraryMode '\(value)' from \(source) must be an octal file mode the owner can read and write, e.g. 0644 or 0640"
        }
    }
    public var category: ErrorCategory { .usage }
}
