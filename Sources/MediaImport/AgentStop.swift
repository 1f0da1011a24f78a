import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Asks a long-running agent to stop at a safe point (`piper serve` stopping): no new job is
/// claimed, a running download ends at its next progress check with its partial file and its
/// validators kept (the job goes back to the queue, so the next agent resumes it), and the loop
/// returns between passes, never in the middle of an import.
///
/// `@unchecked Sendable`: `requested` and `wakers` are only touched while holding `lock`; the
/// pipe is made in `init`, written once by `request` and closed in `deinit`.
public final class AgentStop: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var wakers: [@Sendable () -> Void] = []
    /// A pipe's ends: the read end is readable once the stop is requested, so an idle agent's
    /// `poll` ends at once (-1: no pipe).
    let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    public var isRequested: Bool { lock.withLock { requested } }

    /// Says stop; the agent's waits end now.
    public func request() {
        let wake = lock.withLock { () -> [@Sendable () -> Void] in
            requested = true
            return wakers
        }
        var byte: UInt8 = 1
        if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
        wake.forEach { $0() }
    }

    /// Runs `wake` when the stop is requested (at once if it already is).
    func onRequest(_ wake: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            wakers.append(wake)
            return requested
        }
        if now { wake() }
    }
}
