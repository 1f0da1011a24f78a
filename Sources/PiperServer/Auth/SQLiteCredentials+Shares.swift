import Foundation
import PiperSQLite

/// The share ledger in the server's SQLite file (migration 5 of `SQLiteStore`'s schema).
extension SQLiteCredentials {
    static let sharesSchema = """
        CREATE TABLE shares (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            followed INTEGER NOT NULL,
            record TEXT NOT NULL
        );
        CREATE INDEX shares_followed ON shares(followed) WHERE followed = 1;
        CREATE TABLE share_keys (
            key TEXT NOT NULL,
            device TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            records TEXT,
            created INTEGER NOT NULL,
            PRIMARY KEY (key, device)
        );
        CREATE INDEX share_keys_created ON share_keys(created);
        """

    public func addShare(_ record: ShareRecord, keeping: Int) throws {
        let json = try ShareLedgerRules.json(record)
        try run { db in
            try db.write { db in
                _ = try db.run("INSERT OR REPLACE INTO shares (id, followed, record) VALUES (?, ?, ?)",
                               [.text(record.id), .int(record.isFollowed ? 1 : 0), .text(json)])
                _ = try db.run("DELETE FROM shares WHERE seq <= (SELECT seq FROM shares ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                               [.int(Int64(keeping))])
            }
        }
    }

    public func updateShare(_ record: ShareRecord) throws {
        let json = try ShareLedgerRules.json(record)
        try run { db in
            try db.write { _ = try $0.run("UPDATE shares SET followed = ?, record = ? WHERE id = ?",
                                          [.int(record.isFollowed ? 1 : 0), .text(json), .text(record.id)]) }
        }
    }

    public func recentShares(limit: Int) throws -> [ShareRecord] {
        try run { db in
            try db.read { try $0.query("SELECT record FROM shares ORDER BY seq DESC LIMIT ?", [.int(Int64(limit))]) { $0.text(0) } }
        }.compactMap(ShareLedgerRules.record)
    }

    public func shares(ids: [String]) throws -> [ShareRecord] {
        try ids.compactMap { id in
            try run { db in try db.read { try $0.query("SELECT record FROM shares WHERE id = ?", [.text(id)]) { $0.text(0) } } }
                .first.flatMap(ShareLedgerRules.record)
        }
    }

    public func followedShares(limit: Int) throws -> [ShareRecord] {
        try run { db in
            try db.read { try $0.query("SELECT record FROM shares WHERE followed = 1 ORDER BY seq DESC LIMIT ?",
                                       [.int(Int64(limit))]) { $0.text(0) } }
        }.compactMap(ShareLedgerRules.record)
    }

    public func claimShareKey(_ claim: ShareKeyClaim, now: Date, abandonAfter: TimeInterval) throws -> ShareKeyState {
        try run { db in
            try db.write { db in
                _ = try db.run("DELETE FROM share_keys WHERE (records IS NOT NULL AND created <= ?) OR (records IS NULL AND created <= ?)",
                               [.int(now.addingTimeInterval(-ShareLedgerRules.keyLifetime).credentialSeconds),
                                .int(now.addingTimeInterval(-abandonAfter).credentialSeconds)])
                let rows = try db.query("SELECT fingerprint, records FROM share_keys WHERE key = ? AND device = ?",
                                        [.text(claim.key), .text(claim.device)]) { ($0.text(0), $0.optionalText(1)) }
                if let row = rows.first { return ShareLedgerRules.state(of: (row.0, row.1), for: claim) }
                _ = try db.run("INSERT INTO share_keys (key, device, fingerprint, records, created) VALUES (?, ?, ?, NULL, ?)",
                               [.text(claim.key), .text(claim.device), .text(claim.fingerprint), .int(now.credentialSeconds)])
                return .claimed
            }
        }
    }

    public func finishShareKey(_ claim: ShareKeyClaim, records: String?, now: Date) throws {
        try run { db in
            try db.write { db in
                guard let records else {
                    _ = try db.run("DELETE FROM share_keys WHERE key = ? AND device = ? AND records IS NULL",
                                   [.text(claim.key), .text(claim.device)])
                    return
                }
                _ = try db.run("INSERT OR REPLACE INTO share_keys (key, device, fingerprint, records, created) VALUES (?, ?, ?, ?, ?)",
                               [.text(claim.key), .text(claim.device), .text(claim.fingerprint), .text(records), .int(now.credentialSeconds)])
                _ = try db.run("""
                    DELETE FROM share_keys WHERE records IS NOT NULL AND rowid NOT IN
                        (SELECT rowid FROM share_keys WHERE records IS NOT NULL ORDER BY created DESC LIMIT ?)
                    """, [.int(Int64(ShareLedgerRules.keysKept))])
            }
        }
    }

    public func importShares(_ records: [ShareRecord], keys: [ShareKeyEntry]) throws {
        let rows = try records.reversed().map { ($0, try ShareLedgerRules.json($0)) }
        try run { db in
            try db.write { db in
                for (record, json) in rows {
                    _ = try db.run("INSERT OR IGNORE INTO shares (id, followed, record) VALUES (?, ?, ?)",
                                   [.text(record.id), .int(record.isFollowed ? 1 : 0), .text(json)])
                }
                for key in keys {
                    _ = try db.run("INSERT OR IGNORE INTO share_keys (key, device, fingerprint, records, created) VALUES (?, ?, ?, ?, ?)",
                                   [.text(key.key), .text(key.device), .text(key.fingerprint), .text(key.record),
                                    .int(key.created.credentialSeconds)])
                }
            }
        }
    }
}
