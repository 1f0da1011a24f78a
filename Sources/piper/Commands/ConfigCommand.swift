import Foundation
import MediaImport
import PiperCore

/// `piper config [--backend URL] [--json] [set KEY VALUE | unset KEY | path]`: shows every
/// setting with its source and Piper's folders, or changes the config file.
struct ConfigCommand: Command {
    static let name = "config"
    static let abstract = "Show or change Piper's settings: backend URL, default placement, and Piper's folders."
    static let discussion: String? = """
        The backend URL comes from --backend, else PIPER_BACKEND_URL, else backendURL in the config
        file, else none (a share of an article then says how to name one). The config file is
        $PIPER_HOME/config.json when PIPER_HOME is set, else $XDG_CONFIG_HOME/piper/config.json
        (~/.config/piper/config.json); the old config.json in the data folder is still read.
          piper config set backend http://127.0.0.1:8080    (keys: backend/backendURL, placement/defaultPlacement,
                                                             library, libraryMode)
          piper config set library /srv/media/piper          (the library folder; PIPER_LIBRARY and --library win)
          piper config set libraryMode 0640                  (library files' mode; default: as the umask allows)
          piper config set x-hosts nitter.example            (hosts whose pages are X pages; PIPER_X_HOSTS wins)
          piper config set agent.concurrency 4               (the agent's and downloader's numbers, agent.* and
                                                             download.*: 'piper config --json' lists them all;
                                                             each one's PIPER_* variable wins)
          piper config unset backend
          piper config path                                  (prints the config file's path)
        """
    struct Options: OptionGroup {
        var backend = Opt.text("--backend", placeholder: "URL", help: "Use this backend (https, or http on loopback).")
        var json = Opt.flag("--json", help: "Print the settings as JSON.")
        var library = LibraryOption.option()
    }
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "ACTION", help: "set KEY VALUE, unset KEY, or path; nothing shows the settings.", optional: true, variadic: true),
    ]

    enum Action: Equatable { case show, path, set(String, String), unset(String) }

    let backend: String?
    let json: Bool
    let action: Action
    let libraryFlag: Bool
    let environment: [String: String]

    init(_ parsed: Parsed<Options>) throws {
        environment = try LibraryOption.environment(parsed.library)
        libraryFlag = parsed.library != nil
        backend = parsed.backend
        json = parsed.json
        let words = parsed.positionals
        switch words.first {
        case nil: action = .show
        case "path" where words.count == 1: action = .path
        case "set" where words.count == 3: action = .set(words[1], words[2])
        case "unset" where words.count == 2: action = .unset(words[1])
        case "set": throw UsageError("config set takes a KEY and a VALUE, e.g. 'piper config set backend http://127.0.0.1:8080'")
        case "unset": throw UsageError("config unset takes one KEY, e.g. 'piper config unset backend'")
        case let word?:
            let hint = Spelling.closest(to: word, among: ["set", "unset", "path"]).map { ". Did you mean '\($0)'?" } ?? ""
            throw UsageError("Unknown config action '\(word)'\(hint)")
        }
    }

    /// One setting and where its value came from.
    struct Setting: Encodable {
        let value: String?
        let source: String
    }

    struct Report: Encodable {
        let backendURL: String?
        let backendSource: String
        let settings: [String: Setting]
        let stateFolder: String
        let libraryFolder: String
        let configFile: String
        let configFileExists: Bool
    }

    func run() async throws -> ExitCode {
        var config = try loadConfig(backendFlag: backend, environment: environment)
        switch action {
        case .show:
            try show(config)
        case .path:
            Output.out(config.location.file.path)
        case .set(let name, let value):
            let key = try ConfigFile.key(named: name, file: config.location.file)
            try config.file.set(key, to: value, in: config.location.file)
            Output.note("Set \(key) in \(config.location.file.path)")
        case .unset(let name):
            let key = try ConfigFile.key(named: name, file: config.location.file)
            try config.file.set(key, to: nil, in: config.location.file)
            Output.note("Removed \(key) from \(config.location.file.path)")
        }
        return .success
    }

    private func show(_ config: Config) throws {
        let backendValue = config.isBackendConfigured ? config.backendBaseURL.absoluteString : nil
        let library = LibrarySettings.resolve(state: config.state, environment: environment)
        let tunables = TunableValues(file: config.file.tunables, environment: environment)
        for notice in tunables.notices { Output.err(notice) }
        let mode: String
        switch library.modes {
        case .umask: mode = String(format: "umask %03o", Int(LibraryFiles.processUmask))
        case .fixed(let file): mode = String(format: "%04o", file)
        }
        let settings = [
            "backendURL": Setting(value: backendValue, source: config.isBackendConfigured ? config.backendSource.rawValue : "none"),
            "defaultPlacement": Setting(value: config.file.defaultPlacement,
                                        source: config.file.defaultPlacement == nil ? "default" : "config.json"),
            "library": Setting(value: library.folder.path, source: libraryFlag ? "--library" : library.folderSource),
            "libraryMode": Setting(value: mode, source: library.modeSource),
            "xHosts": environment["PIPER_X_HOSTS"].flatMap { $0.isEmpty ? nil : Setting(value: $0, source: "PIPER_X_HOSTS") }
                ?? Setting(value: config.file.xHosts, source: config.file.xHosts == nil ? "default" : "config.json"),
        ].merging(Tunables.all.map { tunable in
            (tunable.key, Setting(value: Tunable.text(tunables.effective(tunable.key)), source: tunables.sources[tunable.key] ?? "default"))
        }) { first, _ in first }
        let report = Report(backendURL: backendValue, backendSource: settings["backendURL"]?.source ?? "none",
                            settings: settings, stateFolder: config.state.url.path, libraryFolder: config.state.library.path,
                            configFile: config.location.file.path,
                            configFileExists: FileManager.default.fileExists(atPath: config.location.file.path))
        if json {
            try Output.json(report)
            return
        }
        Output.out("backend:           \(backendValue ?? "(none: run 'piper serve', then 'piper config set backend URL')")  (from \(report.backendSource))")
        Output.out("default placement: \(config.file.defaultPlacement ?? "(library root)")  (from \(settings["defaultPlacement"]?.source ?? "default"))")
        Output.out("state folder:      \(report.stateFolder)")
        Output.out("library folder:    \(report.libraryFolder)  (from \(settings["library"]?.source ?? "default"))")
        Output.out("library mode:      \(mode)  (from \(library.modeSource))")
        Output.out("config file:       \(report.configFile)\(report.configFileExists ? "" : "  (not created yet)")")
        // The agent's and downloader's numbers that differ from their defaults ('--json' has all).
        for tunable in Tunables.all {
            guard let source = tunables.sources[tunable.key] else { continue }
            let unit = tunable.unit.isEmpty ? "" : " \(tunable.unit)"
            Output.out("\(tunable.key): \(Tunable.text(tunables.effective(tunable.key)))\(unit)  (from \(source))")
        }
    }
}
