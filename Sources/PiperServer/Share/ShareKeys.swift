import Foundation
import PiperCore

/// Idempotency keys of shares: a client (the web app's service worker, a Shortcut, a script)
/// sends one with a share (`Idempotency-Key`, or a `key` field), and a retry of the same share
/// (a lost answer, a phone that came back online, a reload) gets the first share's answer
/// instead of a second job. A key reused for different content is refused. Kept in
/// `share-keys.json` in the state folder (0600, rewritten atomically), the newest 1,000 for a
/// week, so a retry after a restart is still recognized.
///
/// `@unchecked Sendable`: `entries`, `pending` and the file are touched only under `condition`.
final class ShareKeys: @unchecked Sendable {
    struct Entry: Codable, Equatable {
        var key: String
        var device: String
        var fingerprint: String
        var record: String
        var created: Date
    }

    enum Claim: Equatable {
        /// A new key: run the share, then `finish`.
        case new
        /// Shared already: answer with this record.
        case done(record: String)
        /// The key was used for another share.
        case conflict
    }

    static let limit = 1000
    static let lifetime: TimeInterval = 7 * 86_400
    private let condition = NSCondition()
    private var entries: [Entry]
    /// Keys whose share is running now, with their fingerprints.
    private var pending: [String: String] = [:]
    let file: URL?

    init(file: URL?) {
        self.file = file
        entries = file.flatMap { try? JSONDecoder.iso.decode([Entry].self, from: Data(contentsOf: $0)) } ?? []
    }

    static func file(in state: StateFolder) -> URL { state.url.appendingPathComponent("share-keys.json") }

    /// A usable key: 8 to 128 letters, digits, `-` and `_` (a UUID fits).
    static func isValid(_ key: String) -> Bool {
        (8...128).contains(key.utf8.count) && key.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }

    /// Claims `key` for a share by `device` of content `fingerprint`. A retry that arrives while
    /// the first is still running waits for it (up to `wait` seconds) and gets its record.
    func claim(_ key: String, device: String, fingerprint: String, now: Date = Date(), wait: TimeInterval = 300) -> Claim {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(wait)
        while let running = pending[key] {
            guard running == fingerprint else { return .conflict }
            if !condition.wait(until: deadline) { return .conflict }
        }
        if let entry = entries.first(where: { $0.key == key && $0.device == device }), now.timeIntervalSince(entry.created) < Self.lifetime {
            return entry.fingerprint == fingerprint ? .done(record: entry.record) : .conflict
        }
        pending[key] = fingerprint
        return .new
    }

    /// Records the share a claimed key made (nil: it made none; the key is free again).
    func finish(_ key: String, device: String, fingerprint: String, record: String?, now: Date = Date()) {
        condition.lock()
        defer { condition.unlock(); condition.broadcast() }
        pending[key] = nil
        guard let record else { return }
        entries.removeAll { $0.key == key && $0.device == device || now.timeIntervalSince($0.created) >= Self.lifetime }
        entries.insert(Entry(key: key, device: device, fingerprint: fingerprint, record: record, created: now), at: 0)
        if entries.count > Self.limit { entries.removeLast(entries.count - Self.limit) }
        guard let file else { return }
        do {
            try StateFolder.writeAtomically(try JSONEncoder.iso.encode(entries), to: file, mode: 0o600)
        } catch {
            RequestLog.standardError.write("cannot keep the share keys in \(file.path): \(error)")
        }
    }
}

private extension JSONDecoder {
    static var iso: JSONDecoder { let d = JSONDecoder(); d.dateDecodingStrategy = .iso8601; return d }
}

private extension JSONEncoder {
    static var iso: JSONEncoder { let e = JSONEncoder(); e.dateEncodingStrategy = .iso8601; e.outputFormatting = [.sortedKeys]; return e }
}
