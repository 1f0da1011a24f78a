import Foundation
import Glibc

/// Which thread holds a catalog's import lock, and what it holds with it (the PostgreSQL
/// catalog's lock connection): so a thread that holds the lock and asks again runs on (a
/// nested `withImportLock` would otherwise wait for itself).
///
/// `@unchecked Sendable`: `holder` is only touched under `lock`.
package final class ImportLockHolder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var holder: (thread: pthread_t, value: Value)?

    package init() {}

    /// What the current thread holds the lock with; nil when it does not hold it.
    package var mine: Value? {
        lock.withLock { holder.flatMap { pthread_equal($0.thread, pthread_self()) != 0 ? $0.value : nil } }
    }

    /// Runs `body` as the current thread's hold, with `value`.
    package func holding<T>(_ value: Value, _ body: () throws -> T) rethrows -> T {
        lock.withLock { holder = (pthread_self(), value) }
        defer { lock.withLock { holder = nil } }
        return try body()
    }
}
