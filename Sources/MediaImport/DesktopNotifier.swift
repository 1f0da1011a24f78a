import Foundation
import PiperSystem

/// Tells the desktop when a share ends while no terminal is watching (a share's background
/// agent, the systemd service): `notify-send`, when it is installed and a session bus or display
/// is there to show it. Fire and forget: a notification that can't be shown changes nothing.
public struct DesktopNotifier: Sendable {
    package let program: String
    let environment: [String: String]

    /// nil when `notify-send` isn't on PATH or there is no desktop session to notify.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let session = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        guard session, let program = ExecutableSearch.find("notify-send", environment: environment) else { return nil }
        self.program = program
        self.environment = environment
    }

    /// Shows `summary` with `body`; never blocks, never fails the caller.
    package func notify(_ summary: String, _ body: String) {
        let spawner = ProcessSpawner(program: program, arguments: ["--app-name=Piper", summary, body], environment: environment)
        if let pid = try? spawner.spawn() { ProcessSpawner.reapInBackground(pid) }
    }
}
