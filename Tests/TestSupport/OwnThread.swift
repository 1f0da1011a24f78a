import Foundation

/// Runs long CPU-bound test work (a corpus loop, a 20 MB document) on a thread of its own.
///
/// Why: Swift Testing runs every test case as a task on Swift concurrency's cooperative pool,
/// which has one thread per core (two on our machines). A synchronous test body that computes
/// for a minute holds one of those threads for that minute; two of them hold the whole pool, and
/// every other test case waits in the queue with its time limit running. (A thread blocked in a
/// system call is replaced by the pool after a moment; a busy one never is.) On a thread of its
/// own the work still takes its share of the cores, but the scheduler shares them out, and the
/// pool keeps running the rest of the suite.
///
/// The work stays in the calling task (a task executor preference, not a detached thread), so
/// `#expect` and `Issue.record` inside it are attributed to the running test as usual.
public func onOwnThread<T>(_ work: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
        // A call between two nonisolated contexts does not hop executors: the task moves to its
        // preferred one at its next suspension, so make one before the work starts.
        await Task.yield()
        return try work()
    }
}

/// A task executor that runs each job it is given on a new thread with an 8 MiB stack (deep-tree
/// tests recurse as far as the main thread allows).
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
