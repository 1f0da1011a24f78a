import Foundation
import PiperCore

/// `piper config [--backend URL] [--json]`: shows the resolved settings and where they came from.
struct ConfigCommand: Command {
    static let name = "config"
    static let abstract = "Show Piper's resolved settings: backend URL (and its source) and state folder."
    static let discussion: String? = """
        The backend URL comes from --backend, else PIPER_BACKEND_URL, else config.json in the state
        folder, else the built-in default. The state folder is PIPER_HOME, else $XDG_DATA_HOME/piper,
        else ~/.local/share/piper.
        """
    struct Options: OptionGroup {
        var backend = Opt.text("--backend", placeholder: "URL", help: "Use this backend (https, or http on loopback).")
        var json = Opt.flag("--json", help: "Print the settings as JSON.")
    }

    let backend: String?
    let json: Bool

    init(_ parsed: Parsed<Options>) throws {
        backend = parsed.backend
        json = parsed.json
    }

    struct Report: Encodable {
        let backendURL: String
        let backendSource: String
        let stateFolder: String
    }

    func run() async throws -> ExitCode {
        let config = try Config.load(backendFlag: backend)
        let report = Report(backendURL: config.backendBaseURL.absoluteString,
                            backendSource: config.backendSource.rawValue,
                            stateFolder: config.state.url.path)
        if json {
            try Output.json(report)
        } else {
            Output.out("backend:      \(report.backendURL)  (from \(report.backendSource))")
            Output.out("state folder: \(report.stateFolder)")
        }
        return .success
    }
}
