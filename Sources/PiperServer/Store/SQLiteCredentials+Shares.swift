import Foundation
import PiperSQLite

/// The share ledger in the server's SQLite file (migrations 5 and 6 of `SQLiteStore`'s schema).
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

    /// Migration 6: a claim belongs to a living run. `owner`: the server process running it;
    /// `lease`: until when (whole seconds), renewed while it runs; `done`: the items it
    /// finished (`ShareKeyProgress`). Rows from before have no lease: `ShareLedgerRules.formerLease`.
    static let shareLeasesSchema = """
        ALTER TABLE share_keys ADD COLUMN owner TEXT;
        ALTER TABLE share_keys ADD COLUMN lease INTEGER;
        ALTER TABLE share_keys ADD COLUMN done TEXT;
        CREATE INDEX share_keys_owner ON share_keys(owner) WHERE owner IS NOT NULL;
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

    public func claimShareKey(_ claim: ShareKeyClaim, owner: String, now: Date, lease: TimeInterval) throws -> ShareKeyState {
        let expired = now.addingTimeInterval(-ShareLedgerRules.keyLifetime).credentialSeconds
        let until = now.addingTimeInterval(lease).credentialSeconds
        return try run { db in
            try db.write { db in
                _ = try db.run("""
                    DELETE FROM share_keys WHERE created <= ? AND (records IS NOT NULL OR COALESCE(lease, created + ?) <= ?)
                    """, [.int(expired), .int(ShareLedgerRules.formerLease), .int(expired)])
                let rows = try db.query("""
                    SELECT fingerprint, records, COALESCE(lease, created + ?), done FROM share_keys WHERE key = ? AND device = ?
                    """, [.int(ShareLedgerRules.formerLease), .text(claim.key), .text(claim.device)]) {
                    (fingerprint: $0.text(0), records: $0.optionalText(1), lease: $0.int64(2), done: $0.optionalText(3))
                }
                if let row = rows.first {
                    if let state = ShareLedgerRules.state(of: (row.fingerprint, row.records, row.lease), for: claim, now: now) { return state }
                    // Left by a run that died: this one takes it over, with what that one finished.
                    _ = try db.run("UPDATE share_keys SET owner = ?, lease = ? WHERE key = ? AND device = ?",
                                   [.text(owner), .int(until), .text(claim.key), .text(claim.device)])
                    return .claimed(done: row.done ?? "")
                }
                _ = try db.run("INSERT INTO share_keys (key, device, fingerprint, records, created, owner, lease) VALUES (?, ?, ?, NULL, ?, ?, ?)",
                               [.text(claim.key), .text(claim.device), .text(claim.fingerprint), .int(now.credentialSeconds),
                                .text(owner), .int(until)])
                return .claimed(done: "")
            }
        }
    }

    public func renewShareKeys(owner: String, until: Date) throws {
        try run { db in
            try db.write { _ = try $0.run("UPDATE share_keys SET lease = ? WHERE owner = ? AND records IS NULL",
                                          [.int(until.credentialSeconds), .text(owner)]) }
        }
    }

    public func noteShareKeyItems(_ claim: ShareKeyClaim, owner: String, done: String) throws {
        try run { db in
            try db.write { _ = try $0.run("UPDATE share_keys SET done = ? WHERE key = ? AND device = ? AND owner = ? AND records IS NULL",
                                          [.text(done), .text(claim.key), .text(claim.device), .text(owner)]) }
        }
    }

    public func finishShareKey(_ claim: ShareKeyClaim, owner: String, records: String?, done: String, now: Date) throws {
        try run { db in
            try db.write { db in
                guard let records else {
                    _ = try db.run("""
                        UPDATE share_keys SET owner = NULL, lease = 0, done = ? WHERE key = ? AND device = ? AND owner = ? AND records IS NULL
                        """, [.text(done), .text(claim.key), .text(claim.device), .text(owner)])
                    return
                }
                _ = try db.run("""
                    INSERT INTO share_keys (key, device, fingerprint, records, created) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (key, device) DO UPDATE SET fingerprint = excluded.fingerprint, records = excluded.records,
                        created = excluded.created, owner = NULL, lease = NULL, done = NULL
                        WHERE share_keys.records IS NULL AND (share_keys.owner = ? OR share_keys.owner IS NULL)
                    """, [.text(claim.key), .text(claim.device), .text(claim.fingerprint), .text(records), .int(now.credentialSeconds), .text(owner)])
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
