import Foundation
import PiperCore

/// A keyed share (`Idempotency-Key`): what it carries and who sent it.
struct KeyedShare: Sendable {
    let key: String
    let device: String
    let fingerprint: String
    let items: ShareItems
    /// When a retry stops waiting for a first try that is still running.
    let giveUp: Date
}

extension ShareRoute {
    /// How long a retry waits for its first try (still running, alive) before it is told to
    /// send again; it waits on a timer, holding no thread.
    static let retryWait: TimeInterval = 60
    /// How often a waiting retry looks at its key again.
    static let retryLook: TimeInterval = 0.5

    /// Claims the key and runs the share, answers with the first try's records, or waits for a
    /// first try that is still running. A run whose answer is a server error (5xx) does not
    /// become the key's answer: the key is released with the items that did end well, so the
    /// next try runs the rest. Every other answer is the key's for its week (a refusal, 4xx,
    /// would be the same again: the same content gets the same answer).
    func claim(_ share: KeyedShare, _ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        switch keys.claim(share.key, device: share.device, fingerprint: share.fingerprint) {
        case .conflict:
            respond(answer(HTTPError(409, "This idempotency key was used for another share; send the share with a new key"),
                           request, device: share.device))
        case .running:
            guard Date() < share.giveUp else {
                return respond(answer(HTTPError(503, "The first try of this share is still running; send it again in a moment",
                                                headers: [("Retry-After", "5")]), request, device: share.device))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryLook) {
                BlockingPool.shareWork.async { claim(share, request, respond: respond) }
            }
        case .done(let ids):
            let records = runner.history.records(ids: ids.split(separator: ",").map(String.init))
            guard !records.isEmpty else {
                return respond(answer(HTTPError(409, "This share was made already (its result is no longer kept)"), request, device: share.device))
            }
            respond(result(records, request))
        case .new(let done):
            let note: @Sendable (ShareKeyProgress) -> Void = { progress in
                keys.note(share.key, device: share.device, fingerprint: share.fingerprint, done: progress)
            }
            run(share.items, device: share.device, skipping: done, noting: note) { records, progress in
                let final = ShareItems.status(of: records) < 500
                keys.finish(share.key, device: share.device, fingerprint: share.fingerprint,
                            record: final ? records.map(\.id).joined(separator: ",") : nil, done: progress)
                respond(result(records, request))
            }
        }
    }

    /// Every item of a share, each its own job on the share workers (`ShareWork`): each link,
    /// then each file; nothing at all is the runner's "No URL found in share input". Items in
    /// `done` (a run before this one finished them) are answered with their records, not run
    /// again; each item that ends well is noted (`noting`) as it ends. `finished` gets the
    /// records in the items' order and the items done.
    func run(_ share: ShareItems, device: String, skipping done: ShareKeyProgress, noting: (@Sendable (ShareKeyProgress) -> Void)?,
             finished: @escaping @Sendable ([ShareRecord], ShareKeyProgress) -> Void) {
        let runner = self.runner, clock = self.clock
        let targets = share.links.map { ShareTarget.link($0) as ShareTarget? } + share.files.map { ShareTarget.file($0.url) }
        let names = share.links.map { _ in nil as String? } + share.files.map(\.name)
        let jobs: [@Sendable () -> ShareRecord] = targets.isEmpty
            ? [{ runner.share(items: share.items, file: nil, device: device, now: clock()) }]
            : targets.indices.map { index in { runner.share(targets[index], fileName: names[index], device: device, now: clock()) } }
        let kept = Dictionary(runner.history.records(ids: Array(done.records.values)).map { ($0.id, $0) }) { first, _ in first }
        let earlier = done.records.compactMapValues { kept[$0] }.filter { $0.key < jobs.count }
        let progress = KeyProgress(earlier.mapValues(\.id))
        let pending = jobs.indices.filter { earlier[$0] == nil }
        ShareWork.shares.run(pending.map { index in
            { () -> (Int, ShareRecord) in
                let record = jobs[index]()
                if record.httpStatus < 500 { progress.add(index, record.id, noting: noting) }
                return (index, record)
            }
        }, for: device) { results in
            var records = earlier
            for (index, record) in results { records[index] = record }
            finished(records.keys.sorted().compactMap { records[$0] }, progress.current)
        }
    }
}

/// The items of one keyed run that are done, as they end on several threads.
/// `@unchecked Sendable`: `progress` is only touched holding `lock`.
private final class KeyProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var progress: ShareKeyProgress

    init(_ records: [Int: String]) {
        progress = ShareKeyProgress()
        progress.records = records
    }

    /// Notes item `index` done as `id`, and hands all done so far to `noting` (in turn: a
    /// later note never overtakes an earlier one).
    func add(_ index: Int, _ id: String, noting: (@Sendable (ShareKeyProgress) -> Void)?) {
        lock.withLock {
            progress.records[index] = id
            noting?(progress)
        }
    }

    var current: ShareKeyProgress { lock.withLock { progress } }
}

/// One value handed from another thread to a waiting one.
/// `@unchecked Sendable`: `value` is only touched holding `condition`.
final class Awaited<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ newValue: T) {
        condition.withLock {
            value = newValue
            condition.signal()
        }
    }

    func wait() -> T {
        condition.withLock {
            while true {
                if let value { return value }
                condition.wait()
            }
        }
    }
}
