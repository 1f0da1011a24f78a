import Foundation
import PiperCore

/// `--library DIR` on the commands that touch the library (library, share, agent, serve,
/// config). The folder is validated and passed on as `PIPER_LIBRARY`, so this process's state
/// folder and every agent it starts find the same library.
enum LibraryOption {
    static func option() -> Option<String?> {
        Opt.text("--library", placeholder: "DIR", help: "The library folder (default: PIPER_LIBRARY, else 'library' in the config file, else library/ in the state folder).")
    }

    /// Applies the flag's value, if any; true when one was given.
    @discardableResult
    static func apply(_ value: String?) throws -> Bool {
        guard let value else { return false }
        let folder = try LibrarySettings.folder(value, from: "--library")
        setenv("PIPER_LIBRARY", folder.path, 1)
        return true
    }
}
