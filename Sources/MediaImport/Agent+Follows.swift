import Foundation
import PiperCore

/// The long-running agent checks followed feeds when they are due, on a thread of their own
/// so downloads and imports go on meanwhile; what a check queues wakes the agent through the
/// journal like any share. A one-shot agent (`--once`, started for a share) leaves them to it.
extension Agent {
    func refreshFollowsIfDue(_ journal: Journal, once: Bool) {
        guard !once, let due = try? journal.followStore(followStore).nextFollowCheck(), due <= Date(), followTicker.begin() else { return }
        var refresher = FollowRefresher(state: state)
        refresher.fetch = FeedFetch(connectionGuard: connectionGuard)
        refresher.store = followStore
        refresher.lease = settings.followLease
        refresher.catalog = catalog
        let log = self.log
        let ticker = followTicker
        let checker = refresher
        Thread.detachNewThread {
            defer { ticker.end() }
            do {
                for check in try checker.refreshDue() {
                    log("checked \(check.follow.title): \(check.follow.lastResult ?? "")")
                }
            } catch {
                log("checking followed feeds failed: \(error)")
            }
        }
    }

    /// How long an idle agent may sleep before a followed feed is due (nil: none followed, or
    /// a one-shot agent).
    func untilNextFollowCheck(_ journal: Journal, once: Bool) -> TimeInterval? {
        guard !once, !followTicker.isRunning, let due = try? journal.followStore(followStore).nextFollowCheck() else { return nil }
        return max(due.timeIntervalSinceNow, 0.05)
    }
}

/// Whether a check of the followed feeds is running (one at a time per agent).
final class FollowTicker: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false

    func begin() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if running { return false }
        running = true
        return true
    }

    func end() { lock.lock(); running = false; lock.unlock() }

    var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }
}
