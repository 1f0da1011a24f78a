import Foundation

/// Test hooks, for crash tests only. `PIPER_TEST_PAUSE_AT=<point>` makes the agent stop
/// (sleep for an hour) at that point so a test can kill it there with SIGKILL:
/// - `downloaded`: the file is complete in `downloads/` and journaled, not yet landed;
/// - `landed`: the file is in `inbox/` and journaled, not yet handed to the importer;
/// - `library-copy`: an import into a library on another file system has copied its first
///   chunk into its hidden temp file (`TemporaryFile`).
/// Unset in normal use; any other value is ignored.
public struct AgentTestHooks: Sendable, Equatable {
    public var pauseAt: String?

    public init(pauseAt: String? = nil) { self.pauseAt = pauseAt }

    public static func from(environment: [String: String]) -> AgentTestHooks {
        AgentTestHooks(pauseAt: environment["PIPER_TEST_PAUSE_AT"].flatMap { $0.isEmpty ? nil : $0 })
    }

    func pause(at point: String, log: (String) -> Void) {
        guard pauseAt == point else { return }
        log("test hook: paused at \(point)")
        Thread.sleep(forTimeInterval: 3600)
    }
}
