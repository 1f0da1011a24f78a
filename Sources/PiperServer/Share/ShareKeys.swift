import Foundation
import PiperCore

/// Idempotency keys of shares: a client (the web app's service worker, a Shortcut, a script)
/// sends one with a share (`Idempotency-Key`, or a `key` field), and a retry of the same share
/// (a lost answer, a phone that came back online, a reload) gets the first share's answer
/// instead of a second job, whichever server on the database it reaches. A key reused for
/// different content is refused. The keys are in the share ledger (`ShareLedger`), the newest
/// 1,000 for a week.
///
/// A claim on a key belongs to a living run: this server's `owner` id and a lease it renews
/// every `renewEvery` seconds while any of its keyed shares runs. A server that dies (a crash,
/// `kill -9`, a lost machine) stops renewing, and the first retry after its lease lapsed
/// (`lease` seconds at most) takes the key over and runs the share, skipping the items the
/// dead run had finished (each is noted as it ends). However long a share's items take, the
/// lease keeps its claim while it runs, so it is never run twice.
///
/// `@unchecked Sendable`: `held` is only touched holding `lock`; the renewal timer is set up in
/// `init` and afterwards only cancelled.
final class ShareKeys: @unchecked Sendable {
    enum Claim: Equatable {
        /// The key is this share's: run the items not `done` yet, then `finish`.
        case new(done: ShareKeyProgress)
        /// Shared already: answer with these records (ids, comma-separated).
        case done(record: String)
        /// The key was used for another share.
        case conflict
        /// The share runs under this key now (here or on another server), alive.
        case running
    }

    let ledger: any ShareLedger
    let clock: @Sendable () -> Date
    /// This server process's name on the claims it holds.
    let owner = "run-" + DeviceRegistry.randomSecret().prefix(16)
    /// How long a claim lives without its run renewing it.
    static let lease: TimeInterval = 10
    static let renewEvery: TimeInterval = 2
    private let lock = NSLock()
    private var held = 0
    private let renewer: any DispatchSourceTimer

    init(ledger: any ShareLedger, clock: @escaping @Sendable () -> Date = Date.init) {
        self.ledger = ledger
        self.clock = clock
        renewer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "piper.share-keys"))
        renewer.schedule(deadline: .now() + Self.renewEvery, repeating: Self.renewEvery, leeway: .milliseconds(200))
        renewer.setEventHandler { [weak self] in self?.renew() }
        renewer.resume()
    }

    deinit { renewer.cancel() }

    /// A usable key: 8 to 128 letters, digits, `-` and `_` (a UUID fits).
    static func isValid(_ key: String) -> Bool {
        (8...128).contains(key.utf8.count) && key.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }

    /// Claims `key` for a share by `device` of content `fingerprint` (one try: a share that
    /// finds it `.running` asks again later, holding no thread meanwhile). A store that cannot
    /// be reached runs the share unkeyed rather than lose it (said on stderr).
    func claim(_ key: String, device: String, fingerprint: String) -> Claim {
        let claim = ShareKeyClaim(key: key, device: device, fingerprint: fingerprint)
        let state: ShareKeyState
        do {
            state = try ledger.claimShareKey(claim, owner: owner, now: clock(), lease: Self.lease)
        } catch {
            RequestLog.standardError.write("cannot check the share key \(key): \(error); sharing without it")
            // Every `.new` is ended by one `finish`, which counts it off `held`.
            lock.withLock { held += 1 }
            return .new(done: ShareKeyProgress())
        }
        switch state {
        case .claimed(let done):
            lock.withLock { held += 1 }
            return .new(done: ShareKeyProgress(done))
        case .done(let records): return .done(record: records)
        case .conflict: return .conflict
        case .running: return .running
        }
    }

    /// Notes the items of a claimed key's share that are done.
    func note(_ key: String, device: String, fingerprint: String, done: ShareKeyProgress) {
        do {
            try ledger.noteShareKeyItems(ShareKeyClaim(key: key, device: device, fingerprint: fingerprint), owner: owner, done: done.text)
        } catch {
            RequestLog.standardError.write("cannot note the share key \(key)'s progress: \(error)")
        }
    }

    /// Ends a claim: the shares it made are the key's answer (`record`), or with nil the key is
    /// free for a retry, which does only what is not `done`.
    func finish(_ key: String, device: String, fingerprint: String, record: String?, done: ShareKeyProgress) {
        defer { lock.withLock { held -= 1 } }
        do {
            try ledger.finishShareKey(ShareKeyClaim(key: key, device: device, fingerprint: fingerprint), owner: owner,
                                      records: record, done: done.text, now: clock())
        } catch {
            RequestLog.standardError.write("cannot keep the share key \(key): \(error)")
        }
    }

    /// The heartbeat: while this server runs keyed shares, their claims stay alive.
    private func renew() {
        guard lock.withLock({ held > 0 }) else { return }
        do {
            try ledger.renewShareKeys(owner: owner, until: clock().addingTimeInterval(Self.lease))
        } catch {
            RequestLog.standardError.write("cannot renew the running share keys: \(error)")
        }
    }
}
