import Foundation
import PiperCore

/// Idempotency keys of shares: a client (the web app's service worker, a Shortcut, a script)
/// sends one with a share (`Idempotency-Key`, or a `key` field), and a retry of the same share
/// (a lost answer, a phone that came back online, a reload) gets the first share's answer
/// instead of a second job, whichever server on the database it reaches. A key reused for
/// different content is refused. The keys are in the share ledger (`ShareLedger`), the newest
/// 1,000 for a week.
final class ShareKeys: Sendable {
    enum Claim: Equatable {
        /// A new key: run the share, then `finish`.
        case new
        /// Shared already: answer with these records (ids, comma-separated).
        case done(record: String)
        /// The key was used for another share.
        case conflict
        /// The first try is still running after the wait.
        case busy
    }

    let ledger: any ShareLedger
    /// A claim still running after this long belongs to a server that died mid-share.
    static let abandonAfter: TimeInterval = 600

    init(ledger: any ShareLedger) { self.ledger = ledger }

    /// A usable key: 8 to 128 letters, digits, `-` and `_` (a UUID fits).
    static func isValid(_ key: String) -> Bool {
        (8...128).contains(key.utf8.count) && key.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }

    /// Claims `key` for a share by `device` of content `fingerprint`. A retry that arrives while
    /// the first is still running (here or on another server) waits for it, up to `wait`
    /// seconds, and gets its records. A store that cannot be reached runs the share unkeyed
    /// rather than lose it (said on stderr).
    func claim(_ key: String, device: String, fingerprint: String, wait: TimeInterval = 300,
               clock: @Sendable () -> Date = Date.init) -> Claim {
        let claim = ShareKeyClaim(key: key, device: device, fingerprint: fingerprint)
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let state: ShareKeyState
            do {
                state = try ledger.claimShareKey(claim, now: clock(), abandonAfter: Self.abandonAfter)
            } catch {
                RequestLog.standardError.write("cannot check the share key \(key): \(error); sharing without it")
                return .new
            }
            switch state {
            case .claimed: return .new
            case .done(let records): return .done(record: records)
            case .conflict: return .conflict
            case .running:
                guard Date() < deadline else { return .busy }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// Records the shares a claimed key made (nil: it made none; the key is free again).
    func finish(_ key: String, device: String, fingerprint: String, record: String?, now: Date = Date()) {
        do {
            try ledger.finishShareKey(ShareKeyClaim(key: key, device: device, fingerprint: fingerprint), records: record, now: now)
        } catch {
            RequestLog.standardError.write("cannot keep the share key \(key): \(error)")
        }
    }
}
