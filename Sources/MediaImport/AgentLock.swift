import Foundation
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

/// The agent's lock: `flock` on `agent.lock` in the state folder. Whoever holds it works the
/// queue; the kernel drops it when the holder exits or is killed, so a crash never leaves a
/// stale lock behind. The class owns the descriptor: `init` opens and locks, `deinit` closes.
///
/// Not Sendable: held by the agent's own loop.
public final class AgentLock {
    private let fd: Int32

    public static func file(in state: StateFolder) -> URL { state.url.appendingPathComponent("agent.lock") }

    /// Takes the lock without waiting; nil when another process holds it.
    public init?(state: StateFolder) throws {
        try state.ensure()
        let fd = open(Self.file(in: state).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LandingError.cannotWrite(Self.file(in: state).path, errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// True when some process (an agent) holds the lock right now.
    public static func isHeld(state: StateFolder) throws -> Bool {
        try AgentLock(state: state) == nil
    }
}
