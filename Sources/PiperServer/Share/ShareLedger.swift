import Foundation

/// The shares a server ran and the idempotency keys that made them, kept in the store beside
/// who may share (`SQLiteCredentials`, `PostgresCredentials`), so every `piper serve` on one
/// database lists the same recent shares, answers a retried share once whichever server the
/// retry reaches, and shows a media share's progress wherever its download runs.
///
/// Calls are synchronous and may come from several threads at once.
public protocol ShareLedger: Sendable {
    /// Adds a share's record, keeping the newest `keeping` records.
    func addShare(_ record: ShareRecord, keeping: Int) throws
    /// Replaces the record with the same id (its media job's progress moved).
    func updateShare(_ record: ShareRecord) throws
    /// The newest `limit` records, newest first.
    func recentShares(limit: Int) throws -> [ShareRecord]
    /// The records with these ids that are still kept, in the order asked.
    func shares(ids: [String]) throws -> [ShareRecord]
    /// Media shares whose job had not ended when last seen (`ShareRecord.isFollowed`), newest first.
    func followedShares(limit: Int) throws -> [ShareRecord]
    /// Claims an idempotency key for `owner` (one id per running server) until `lease` seconds
    /// from `now` (see `ShareKeyState`). A claim whose lease lapsed belongs to a run that died
    /// (its server was killed, or lost the store): it is taken over in the same transaction, so
    /// of several retries one wins.
    func claimShareKey(_ claim: ShareKeyClaim, owner: String, now: Date, lease: TimeInterval) throws -> ShareKeyState
    /// Extends the leases of every claim `owner` still runs to `until` (the running server's
    /// heartbeat: a claim lives exactly as long as the run that holds it).
    func renewShareKeys(owner: String, until: Date) throws
    /// Notes the items a claimed key's run has finished (`ShareKeyProgress.text`), so a run
    /// that takes the key over does not do them again. Nothing changes once `owner` lost it.
    func noteShareKeyItems(_ claim: ShareKeyClaim, owner: String, done: String) throws
    /// Records the shares a claimed key made (`records`: their ids, comma-separated) as its
    /// answer; or, with nil, releases the key keeping the items `done` (a failure worth
    /// retrying: the next try runs the rest).
    /// A run that no longer holds the claim (another run took it over, or the key has its
    /// answer already) leaves the key as it is.
    func finishShareKey(_ claim: ShareKeyClaim, owner: String, records: String?, done: String, now: Date) throws
    /// Imports records and finished keys (from the former `recent-shares.json` and
    /// `share-keys.json`) in one transaction; those already there are kept.
    func importShares(_ records: [ShareRecord], keys: [ShareKeyEntry]) throws
}

/// A share's idempotency key as one device used it, with what the share carried.
public struct ShareKeyClaim: Sendable, Equatable {
    public var key: String
    public var device: String
    public var fingerprint: String
}

/// What claiming a key found.
public enum ShareKeyState: Sendable, Equatable {
    /// The key is this share's now: run it, then `finishShareKey`. `done`: the items a run
    /// before this one finished (`ShareKeyProgress.text`; empty for a new key).
    case claimed(done: String)
    /// The same share is running under this key, in a run whose lease is alive.
    case running
    /// The share was made: these records (ids, comma-separated) are its answer.
    case done(records: String)
    /// The key was used for a different share.
    case conflict
}

/// The items of a keyed share that are done, by their place in the share (links first, then
/// files: the fingerprint fixes both), each with its record's id: `0=ab12,2=cd34`.
public struct ShareKeyProgress: Sendable, Equatable {
    public var records: [Int: String] = [:]

    public init(_ text: String = "") {
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let index = Int(parts[0]) { records[index] = String(parts[1]) }
        }
    }

    public var text: String { records.keys.sorted().map { "\($0)=\(records[$0] ?? "")" }.joined(separator: ",") }
}

/// A finished key, as `share-keys.json` held it.
public struct ShareKeyEntry: Sendable, Codable, Equatable {
    public var key: String
    public var device: String
    public var fingerprint: String
    public var record: String
    public var created: Date
}

/// The ledger's rules, one place for both stores.
public enum ShareLedgerRules {
    /// Records kept (the home page shows the newest 50; a result page or a retried key finds
    /// its records for longer).
    public static let recordsKept = 1000
    /// How long a finished key answers a retry.
    public static let keyLifetime: TimeInterval = 7 * 86_400
    /// Keys kept at most (the newest).
    public static let keysKept = 1000

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func json(_ record: ShareRecord) throws -> String {
        String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    /// A stored record; nil (skipped) when a row cannot be read, so one damaged row never hides the rest.
    static func record(_ json: String) -> ShareRecord? {
        try? decoder.decode(ShareRecord.self, from: Data(json.utf8))
    }

    /// A claim's lease when its row has none (written before leases): the ten minutes a claim
    /// was then given.
    static let formerLease: Int64 = 600

    /// What an existing key row says to a claim: the same share done, running in a live run, or
    /// left by a dead one (nil: take it over); or a conflict.
    static func state(of row: (fingerprint: String, records: String?, lease: Int64), for claim: ShareKeyClaim, now: Date) -> ShareKeyState? {
        guard row.fingerprint == claim.fingerprint else { return .conflict }
        if let records = row.records { return .done(records: records) }
        return row.lease > now.credentialSeconds ? .running : nil
    }
}

extension ShareRecord {
    /// A media share whose job had not ended when its progress was last written: the server
    /// that runs the job keeps its progress up to date (`ShareRunner.followJobs`).
    public var isFollowed: Bool { status == .queued && job != nil && (progress?.isLive ?? true) }
}
