import CMicroHTTPD
import Foundation

/// Where a sending connection's current window began: the packed phase it belongs to (a new
/// answer on the same connection starts a new one), when, and the bytes acknowledged by then.
struct ReaderWindow: Sendable, Equatable {
    let raw: UInt64
    let start: UInt64
    let acked: Int64
}

extension ConnectionGuard {
    /// Cuts off the oldest connections waiting on their client (head, body or idle, oldest
    /// phase first) until one fewer than `slowBudget` remain, so the connection being admitted
    /// fits. Called with `lock` held, only when the open connections alone reach the budget.
    func makeRoom() {
        var waiting: [(watched: WatchedConnection, watch: ConnectionWatch, raw: UInt64)] = []
        for watched in open.values {
            let (watch, raw) = watched.snapshot()
            if watch.isWaitingOnClient { waiting.append((watched, watch, raw)) }
        }
        guard waiting.count >= slowBudget else { return }
        waiting.sort { $0.watch.since < $1.watch.since }
        for victim in waiting.prefix(waiting.count - slowBudget + 1) where victim.watched.cutOff(from: victim.raw) {
            Self.cut(victim.watched, victim.watch.phase == .idle ? .idle : .evicted)
        }
    }

    /// Judges a connection sending its answer, once per `sendWindow`, from the bytes its client
    /// acknowledged (see `ClientLimits.minSendBytesPerSecond`). Called with `lock` held.
    func judgeReader(_ key: ObjectIdentifier, _ watched: WatchedConnection, raw: UInt64, now: UInt64) {
        guard limits.minSendBytesPerSecond > 0, limits.sendWindow > 0 else { return }
        let acked = piper_socket_bytes_acked(watched.fd)
        guard acked >= 0 else { return }
        guard let window = readers[key], window.raw == raw else {
            readers[key] = ReaderWindow(raw: raw, start: now, acked: acked)
            return
        }
        let seconds = now > window.start ? Double(now - window.start) / 1_000_000_000 : 0
        guard seconds >= limits.sendWindow else { return }
        if let verdict = ConnectionWatch.readerVerdict(acked: Int(acked - window.acked), seconds: seconds, limits: limits) {
            if watched.cutOff(from: raw) { Self.cut(watched, verdict) }
            readers[key] = nil
        } else {
            readers[key] = ReaderWindow(raw: raw, start: now, acked: acked)
        }
    }
}
