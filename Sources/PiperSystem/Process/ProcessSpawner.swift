import CSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program with `posix_spawn`: the one place Piper starts processes (the clipboard
/// tools, headless Chromium, the detached download agent).
///
/// The child gets exactly the descriptors asked for: stdin, stdout and stderr (each a
/// descriptor of ours or /dev/null) and any `extraDescriptors`; every other inherited
/// descriptor is closed in the child, close-on-exec or not. (A tool that leaves a daemon behind,
/// like xclip, must not carry our descriptors with it: a parent watching for our exit through
/// one of them would wait for the daemon too.) Its signal mask is empty, since the calling
/// thread may block signals and a child inherits that, and `resetSignals` are back at their
/// default disposition, since an ignored one survives exec. A program name without a slash is
/// looked up in the child environment's PATH.
package struct ProcessSpawner: Sendable {
    /// What one of the child's descriptors is.
    package enum Descriptor: Equatable, Sendable {
        /// /dev/null, open for reading and writing.
        case null
        /// A copy of this descriptor of ours (it may be close-on-exec; the child's copy is not).
        case fd(Int32)
    }

    /// Which process group and session the child joins.
    package enum Grouping: Equatable, Sendable {
        /// Ours.
        case inherit
        /// A new process group led by the child, so one `kill(-pid, …)` ends it and its children.
        case newProcessGroup
        /// A new session (and group) with no controlling terminal: the child outlives our
        /// terminal and our process group's signals.
        case newSession
    }

    /// The signals a child starts with at their default disposition.
    package static let resetSignals: [Int32] = [SIGPIPE, SIGINT, SIGTERM, SIGHUP]

    /// A path, or a name looked up in `environment["PATH"]`.
    package var program: String
    /// The arguments after argv[0] (which is `program` as given).
    package var arguments: [String]
    /// The child's whole environment.
    package var environment: [String: String]
    /// The child's fd 0.
    package var stdin: Descriptor = .null
    /// The child's fd 1.
    package var stdout: Descriptor = .null
    /// The child's fd 2.
    package var stderr: Descriptor = .null
    /// More descriptors the child gets: its number in the child (3 and up) → ours.
    package var extraDescriptors: [Int32: Int32] = [:]
    /// The child's process group and session.
    package var grouping: Grouping = .inherit

    /// A spawner for `program` with every descriptor at /dev/null, in our process group.
    package init(program: String, arguments: [String] = [], environment: [String: String]) {
        self.program = program
        self.arguments = arguments
        self.environment = environment
    }

    /// Starts the child and returns its pid; the caller reaps it (`waitForExit`).
    package func spawn() throws -> pid_t {
        guard let path = ExecutableSearch.find(program, environment: environment) else {
            throw SpawnError.notFound(program)
        }
        let layout = try DescriptorLayout(self.descriptorTargets)
        defer { layout.closeCopies() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var rc = layout.addActions(to: &actions)
        if rc == 0 { rc = configure(&attributes) }
        guard rc == 0 else { throw SpawnError.failed(program, errno: rc) }

        let argv = [program] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        rc = withCStrings(argv) { cArgs in
            withCStrings(envp) { cEnv in posix_spawn(&pid, path, &actions, &attributes, cArgs, cEnv) }
        }
        guard rc == 0 else { throw SpawnError.failed(program, errno: rc) }
        return pid
    }

    /// Waits for `pid` to end and returns its exit status, or 128 + the signal that killed it.
    package static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: the macros aren't imported.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Reaps `pid` on a background thread whenever it ends, so a child that this process
    /// outlives never stays a zombie.
    package static func reapInBackground(_ pid: pid_t) {
        Thread.detachNewThread { _ = waitForExit(pid) }
    }

    private var descriptorTargets: [Int32: Descriptor] {
        var targets: [Int32: Descriptor] = [0: stdin, 1: stdout, 2: stderr]
        for (target, source) in extraDescriptors { targets[target] = .fd(source) }
        return targets
    }

    /// Empty mask, default dispositions, and the grouping's flag: 0 or an errno value.
    private func configure(_ attributes: inout posix_spawnattr_t) -> Int32 {
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch grouping {
        case .inherit: break
        case .newProcessGroup: flags |= Int32(POSIX_SPAWN_SETPGROUP)
        case .newSession: flags |= Int32(PIPER_POSIX_SPAWN_SETSID)
        }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Self.resetSignals { sigaddset(&defaults, signal) }
        for rc in [posix_spawnattr_setsigmask(&attributes, &empty), posix_spawnattr_setsigdefault(&attributes, &defaults),
                   posix_spawnattr_setpgroup(&attributes, 0), posix_spawnattr_setflags(&attributes, Int16(flags))] where rc != 0 {
            return rc
        }
        return 0
    }
}

/// `body` gets a NULL-terminated array of C strings, freed afterwards.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Why a program did not start. The description is the sentence a user sees.
package enum SpawnError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No executable of that name in PATH.
    case notFound(String)
    /// posix_spawn (or its setup) failed with this errno value.
    case failed(String, errno: Int32)

    /// The errno value behind the failure (ENOENT for a name not in PATH).
    package var errno: Int32 {
        switch self {
        case .notFound: return ENOENT
        case .failed(_, let code): return code
        }
    }

    /// Why, without the program's name.
    package var reason: String {
        switch self {
        case .notFound: return "not found in PATH"
        case .failed(_, let code): return String(cString: strerror(code))
        }
    }

    /// "<program>: <reason>".
    package var description: String {
        switch self {
        case .notFound(let name), .failed(let name, _): return "\(name): \(reason)"
        }
    }
}
