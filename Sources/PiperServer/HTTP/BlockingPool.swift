import Foundation

/// A fixed set of threads for work that blocks (a store insert waiting for its commit). Dispatch's
/// pool cannot tell a thread waiting on a condition from a busy one and keeps only about a
/// core's worth running, which would shrink the commit batches; these threads just wait.
///
/// `@unchecked Sendable`: `jobs` and `stopping` are only touched while holding `condition`.
final class BlockingPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false

    /// Where stores without their own asynchronous insert run blocking inserts (PostgreSQL:
    /// each waits for its round trip). Threads start on first use and live as long as the process.
    static let storeWork = BlockingPool(threads: 64, name: "piper-store")

    init(threads: Int, name: String) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads exit once the queue is empty.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
