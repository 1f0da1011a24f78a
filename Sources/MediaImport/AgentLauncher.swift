import Foundation
import PiperCore
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

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// `posix_spawn` with `POSIX_SPAWN_SETSID`; stdin from /dev/null, stdout and stderr
    /// appended to `log`; no other descriptors inherited. A background thread reaps the child
    /// if this process lives longer than it.
    static func spawnDetached(executable: String, arguments: [String], environment: [String: String], log: URL) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        _ = addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let setsid: Int16 = 0x80   // POSIX_SPAWN_SETSID (glibc); Swift's Glibc module leaves it out
        var flags = setsid | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, flags)
        flags = 0

        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let rc = withCStrings(argv) { cArgs in
            withCStrings(envp) { cEnv in
                posix_spawn(&pid, executable, &actions, &attributes, cArgs, cEnv)
            }
        }
        guard rc == 0 else { throw AgentError.cannotStart(executable, rc) }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        return pid
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
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
    public var exitCode: ExitCode {
        switch self {
        case .cannotStart: return .failure
        case .stateFolderGone: return .unavailable
        }
    }
}
