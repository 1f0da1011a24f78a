import Foundation
import PiperCore

/// `--library DIR` on the commands that touch the library (library, share, agent, serve,
/// config). The folder is validated and becomes `PIPER_LIBRARY` in the environment the command
/// works in: the command resolves its state folder from that environment and hands the same
/// environment to every agent it starts, so they find the same library. The process's own
/// environment is never changed.
enum LibraryOption {
    static func option() -> Option<String?> {
        Opt.text("--library", placeholder: "DIR", help: "The library folder (default: PIPER_LIBRARY, else 'library' in the config file, else library/ in the state folder).")
    }

    /// The environment a command works in: `base` with `PIPER_LIBRARY` set to the validated
    /// folder when the flag was given.
    static func environment(_ value: String?, base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        guard let value else { return base }
        let folder = try LibrarySettings.folder(value, from: "--library", environment: base)
        var environment = base
        environment["PIPER_LIBRARY"] = folder.path
        return environment
    }
}
