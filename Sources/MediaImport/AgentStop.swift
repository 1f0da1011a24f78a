import Foundation

/// Asks a long-running agent to stop at a safe point (`piper serve` stopping): no new job is
/// claimed, a running download ends at its next progress check with its partial file and its
/// validators kept (the job goes back to the queue, so the next agent resumes it), and the loop
/// returns between passes, never in the middle of an import.
///
/// `@unchecked Sendable`: `requested` and `wakers` are only touched while holding `lock`.
public final class AgentStop: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var wakers: [@Sendable () -> Void] = []

    public init() {}

    public var isRequested: Bool { lock.withLock { requested } }

    /// Says stop; the agent's waits end now.
    public func request() {
        let wake = lock.withLock { () -> [@Sendable () -> Void] in
            requested = true
            return wakers
        }
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
