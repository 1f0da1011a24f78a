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

    /// Takes the lock without blocking; nil when another process holds it. `attempts` > 1
    /// tries again a few milliseconds apart, so a sharer's momentary probe (`isHeld`) is not
    /// mistaken for a running agent.
    public init?(state: StateFolder, attempts: Int = 1) throws {
        try state.ensure()
        let fd = open(Self.file(in: state).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LandingError.cannotWrite(Self.file(in: state).path, errno) }
        var tries = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            tries += 1
            guard tries < attempts else {
                close(fd)
                return nil
            }
            usleep(20_000)
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
