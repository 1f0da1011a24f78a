import Foundation
import Testing

/// Runs each test case of a suite on a thread of its own: every `@Suite` in the test targets
/// carries it (`SuiteTraitTests` fails on one without).
///
/// Why: Swift Testing runs every test case as a task on Swift concurrency's cooperative pool,
/// which has one thread per core (two on our machines). Most of our test bodies are synchronous
/// and block: they wait for a child process, a socket, a server's answer, or compute through a
/// corpus. Two such bodies hold the whole pool, and then nothing else moves: not the async
/// tests waiting to resume, not the time-limit clocks of the queued ones. On a thread of its own
/// a body still takes its share of the cores, but the kernel shares them out, and the pool stays
/// free for the tasks that await.
///
/// The body stays in its test's task (a task executor preference, not a detached thread), so
/// `#expect` and `Issue.record` in it are attributed to the running test as usual. How many test
/// cases run at once is Swift Testing's parallelization width (`scripts/test` sets it); with a
/// width set, a case's time limit counts from the moment it runs, not from when it was queued.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // The suite's own scope (no test case) has no body to move.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
            // A call between two nonisolated contexts does not hop executors: the task moves to
            // its preferred one at its next suspension, so make one before the body starts.
            await Task.yield()
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own (see `OwnThreadTrait`).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs each job it is given on a new thread with an 8 MiB stack (the
/// deep-tree tests recurse as far as the main thread allows). A test's task comes back to it
/// after every suspension, so an async test makes a thread per resumption: cheap at test scale.
final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
