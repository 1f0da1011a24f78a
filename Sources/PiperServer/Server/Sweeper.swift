import Dispatch
import Foundation

/// Deletes expired saves every `interval` seconds on a background queue. (Expired saves are
/// never served even before the sweep runs: every read checks the expiry.)
///
/// `@unchecked Sendable`: the timer is created in `init` and afterwards only cancelled, which
/// Dispatch allows from any thread.
final class Sweeper: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(store: any Store, interval: TimeInterval, grace: TimeInterval = 0, clock: @escaping @Sendable () -> Date) {
        let queue = DispatchQueue(label: "piper.sweeper")
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { sweepOnce(store, grace, clock) }
        timer.resume()
    }

    func stop() { timer.cancel() }
}

/// One sweep; failures are logged and retried at the next tick.
private func sweepOnce(_ store: any Store, _ grace: TimeInterval, _ clock: @Sendable () -> Date) {
    do {
        try store.deleteExpired(now: clock(), keepingSourcesFor: grace)
    } catch {
        RequestLog.standardError.write("expiry sweep failed: \(error)")
    }
}
