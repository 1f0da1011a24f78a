import Foundation

/// Piper's state folder: `PIPER_HOME`, else `$XDG_DATA_HOME/piper`, else `~/.local/share/piper`.
/// Created with mode 0700 on first use; secrets inside it are written 0600.
public struct StateFolder: Sendable, Equatable {
    /// The folder itself.
    public let url: URL
    /// The media library: `library/` inside the folder unless the library settings name another
    /// (`--library`, `PIPER_LIBRARY`, `library` in the config file; see `LibrarySettings`).
    public let library: URL
    /// The modes library files and folders get (the process umask unless `libraryMode` is set).
    public let libraryModes: LibraryModes

    /// The state folder at `url` (nothing is created until `ensure`); the library defaults to its `library/`.
    public init(url: URL, library: URL? = nil, libraryModes: LibraryModes = .umask) {
        self.url = url
        self.library = library ?? url.appendingPathComponent("library", isDirectory: true)
        self.libraryModes = libraryModes
    }

    /// Resolves the folder from an environment (the process environment by default), with the
    /// library settings from `PIPER_LIBRARY` and the config file.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> StateFolder {
        let base = resolveBase(environment: environment)
        let settings = LibrarySettings.resolve(state: base, environment: environment)
        return StateFolder(url: base.url, library: settings.folder, libraryModes: settings.modes)
    }

    /// The folder alone, from `PIPER_HOME`/`XDG_DATA_HOME`/`HOME` (the library at its default).
    public static func resolveBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> StateFolder {
        if let home = environment["PIPER_HOME"], !home.isEmpty {
            return StateFolder(url: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return StateFolder(url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("piper", isDirectory: true))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return StateFolder(url: URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/piper", isDirectory: true))
    }

    /// `config.json` (only with `PIPER_HOME` set; see `ConfigFile`).
    public var configFile: URL { url.appendingPathComponent("config.json") }
    /// `cookies.txt`, the X/Twitter login cookies (mode 0600).
    public var cookiesFile: URL { url.appendingPathComponent("cookies.txt") }
    /// `downloads/`: the journal and partial files.
    public var downloads: URL { url.appendingPathComponent("downloads", isDirectory: true) }
    /// `uploads/`: files being uploaded to `piper serve`'s `POST /share` (same file system as `downloads/`).
    public var uploads: URL { url.appendingPathComponent("uploads", isDirectory: true) }
    /// `inbox/`: complete files only, landed by atomic rename.
    public var inbox: URL { url.appendingPathComponent("inbox", isDirectory: true) }
    /// `library.sqlite`, the catalog.
    public var libraryCatalog: URL { url.appendingPathComponent("library.sqlite") }
    /// `piper-serve.sqlite`, `piper serve`'s default database.
    public var serverDatabase: URL { url.appendingPathComponent("piper-serve.sqlite") }

    /// Creates the folder (0700) if needed and returns it.
    @discardableResult
    public func ensure() throws -> URL {
        try Self.makeDirectory(url)
        return url
    }

    /// Creates `sub` below the state folder (and the folder itself), all 0700.
    @discardableResult
    public func ensure(_ sub: URL) throws -> URL {
        try ensure()
        try Self.makeDirectory(sub)
        return sub
    }

    private static func makeDirectory(_ dir: URL) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: dir.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw StateFolderError.notADirectory(dir.path) }
            return
        }
        do {
            try fm.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
        } catch {
            throw StateFolderError.cannotCreate(dir.path)
        }
    }

    /// Writes `data` to `file` atomically (temp file in the same folder, then rename), with `mode`.
    /// Readers never see a half-written file.
    public static func writeAtomically(_ data: Data, to file: URL, mode: Int = 0o600) throws {
        let dir = file.deletingLastPathComponent()
        let tmp = dir.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let fm = FileManager.default
        guard fm.createFile(atPath: tmp.path, contents: data, attributes: [.posixPermissions: mode]) else {
            throw StateFolderError.cannotWrite(file.path)
        }
        do {
            let handle = try FileHandle(forWritingTo: tmp)
            try handle.synchronize()
            try handle.close()
            // POSIX rename(2) (reached through Foundation on Linux and Apple platforms alike)
            // replaces the target atomically; FileManager's replaceItemAt is not a plain rename
            // on Linux and fails when the target does not exist yet.
            guard rename(tmp.path, file.path) == 0 else { throw StateFolderError.cannotWrite(file.path) }
        } catch {
            try? fm.removeItem(at: tmp)
            throw error
        }
    }
}

/// Why the state folder could not be prepared.
public enum StateFolderError: PiperError, Equatable {
    case notADirectory(String)
    case cannotWrite(String)
    case cannotCreate(String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .notADirectory(let p): return "State folder path is not a directory: \(p)"
        case .cannotWrite(let p):
            return "Cannot write \(p): its folder is not writable. Make it writable, or set PIPER_HOME to a folder you own."
        case .cannotCreate(let p):
            return "Cannot create the folder \(p): permission denied. Make its parent writable, or set PIPER_HOME to a folder you own."
        }
    }
    /// Other failure.
    public var category: ErrorCategory { .other }
}
