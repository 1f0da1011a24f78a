import Foundation
import PiperCore
import PiperSystem
#if canImport(Glibc)
import Glibc
#endif

/// Makes sure a worker exists for queued work: when no agent holds the lock, starts a
/// detached `piper agent --once` in a new session, its output appended to
/// `downloads/agent.log`. It outlives the process that shared the link.
public enum AgentLauncher {
    public enum Outcome: Equatable, Sendable { case alreadyRunning, started(pid_t) }

    /// The `piper` binary: `PIPER_EXECUTABLE` when set (tests, wrappers), else this process's
    /// own executable.
    public static func executable(environment: [String: String]) -> String {
        if let path = environment["PIPER_EXECUTABLE"], !path.isEmpty { return path }
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return CommandLine.arguments.first ?? "piper"
    }

    public static func ensureWorker(state: StateFolder, environment: [String: String]) throws -> Outcome {
        if try AgentLock.isHeld(state: state) { return .alreadyRunning }
        return .started(try spawnDetached(executable: executable(environment: environment), arguments: ["agent", "--once"],
                                          environment: environment, log: state.downloads.appendingPathComponent("agent.log")))
    }

    /// Starts `executable arguments` in a new session (`ProcessSpawner`): stdin from /dev/null,
    /// stdout and stderr appended to `log`, no other descriptor inherited. A background thread
    /// reaps the child if this process lives longer than it.
    static func spawnDetached(executable: String, arguments: [String], environment: [String: String], log: URL) throws -> pid_t {
        let logFD = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard logFD >= 0 else { throw AgentError.cannotStart(executable, errno) }
        defer { close(logFD) }
        var spawner = ProcessSpawner(program: executable, arguments: arguments, environment: environment)
        spawner.grouping = .newSession
        spawner.stdout = .fd(logFD)
        spawner.stderr = .fd(logFD)
        let pid: pid_t
        do {
            pid = try spawner.spawn()
        } catch let error as SpawnError {
            throw AgentError.cannotStart(executable, error.errno)
        }
        ProcessSpawner.reapInBackground(pid)
        return pid
    }
}

/// Why the agent could not start, or stopped (per-job failures never stop it).
public enum AgentError: PiperError, Equatable {
    case cannotStart(String, Int32)
    case stateFolderGone(String, String)

    public var description: String {
        switch self {
        case .cannotStart(let path, let code): return "Cannot start the download agent (\(path)): \(String(cString: strerror(code)))"
        case .stateFolderGone(let path, let error): return "The state folder \(path) is gone, so the agent stops: \(error)"
        }
    }
    public var category: ErrorCategory {
        switch self {
        case .cannotStart: return .other
        case .stateFolderGone: return .unavailable
        }
    }
}
