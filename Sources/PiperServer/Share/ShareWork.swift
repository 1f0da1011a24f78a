import Foundation

/// The threads shares run on, shared fairly between credentials. Every item of a share (a
/// link, a file) is its own job; the jobs of one credential hold at most `perCredential`
/// threads at once, and a free thread takes the next job of the credentials in turn (round
/// robin), so one device sending many shares of many slow links never holds every thread:
/// another device's share starts on a free one at once. Each item's page loads have their own
/// timeouts from when the item starts, not from when its request came in.
///
/// `@unchecked Sendable`: `queues`, `turns` and `running` are only touched holding `condition`.
final class ShareWork: @unchecked Sendable {
    typealias Job = @Sendable () -> Void
    private let condition = NSCondition()
    /// Each credential's waiting jobs, oldest first.
    private var queues: [String: [Job]] = [:]
    /// The credentials with waiting jobs, in the order they get their next turn.
    private var turns: [String] = []
    /// Jobs running per credential.
    private var running: [String: Int] = [:]
    let perCredential: Int

    /// Where `POST /share`'s items run: 8 threads, at most 3 of them one credential's.
    static let shares = ShareWork(threads: 8, perCredential: 3, name: "piper-share")

    init(threads: Int, perCredential: Int, name: String) {
        self.perCredential = max(1, perCredential)
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Queues `job` as one of `credential`'s.
    func submit(_ credential: String, _ job: @escaping Job) {
        condition.lock()
        if queues[credential, default: []].isEmpty { turns.append(credential) }
        queues[credential, default: []].append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs every item of one share as its own job and hands their results, in order, to `done`
    /// (on the thread that finished the last).
    func run<T: Sendable>(_ items: [@Sendable () -> T], for credential: String, done: @escaping @Sendable ([T]) -> Void) {
        guard !items.isEmpty else { return done([]) }
        let results = Results<T>(count: items.count, done: done)
        for (index, item) in items.enumerated() {
            submit(credential) { results.set(index, item()) }
        }
    }

    /// How many of `credential`'s jobs run now and wait (for tests and the log).
    func load(of credential: String) -> (running: Int, waiting: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (running[credential] ?? 0, queues[credential]?.count ?? 0)
    }

    /// The next job a free thread may take (holding `condition`): the first credential in turn
    /// under its cap, which then goes to the back of the line.
    private func next() -> (String, Job)? {
        guard let place = turns.firstIndex(where: { (running[$0] ?? 0) < perCredential }) else { return nil }
        let credential = turns.remove(at: place)
        var queue = queues[credential] ?? []
        let job = queue.removeFirst()
        queues[credential] = queue.isEmpty ? nil : queue
        if !queue.isEmpty { turns.append(credential) }
        running[credential, default: 0] += 1
        return (credential, job)
    }

    private func work() {
        while true {
            condition.lock()
            var taken = next()
            while taken == nil {
                condition.wait()
                taken = next()
            }
            condition.unlock()
            guard let (credential, job) = taken else { continue }
            job()
            condition.lock()
            running[credential, default: 1] -= 1
            if running[credential] == 0 { running[credential] = nil }
            // A credential at its cap may have a job waiting: any free thread may take it now.
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// The results of one share's items as they finish, in the items' order.
/// `@unchecked Sendable`: `values` and `left` are only touched holding `lock`.
private final class Results<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [T?]
    private var left: Int
    private let done: @Sendable ([T]) -> Void

    init(count: Int, done: @escaping @Sendable ([T]) -> Void) {
        values = Array(repeating: nil, count: count)
        left = count
        self.done = done
    }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        values[index] = value
        left -= 1
        let finished = left == 0 ? values.compactMap { $0 } : nil
        lock.unlock()
        if let finished { done(finished) }
    }
}
