import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM. Create it before the server starts: from then on these signals
/// no longer kill the process but end `wait()`, so the caller can shut down gracefully.
///
/// `@unchecked Sendable`: `continuation` and `received` are only touched while holding `lock`;
/// the dispatch sources are set in `init` and only cancelled afterwards.
public final class ShutdownSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int32, Never>?
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    public init() {
        let queue = DispatchQueue(label: "piper.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// Returns the signal number once SIGINT or SIGTERM arrives.
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let received {
                lock.unlock()
                continuation.resume(returning: received)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }
    }

    private func deliver(_ number: Int32) {
        lock.lock()
        let waiting = continuation
        continuation = nil
        if received == nil { received = number }
        lock.unlock()
        waiting?.resume(returning: number)
    }
}
