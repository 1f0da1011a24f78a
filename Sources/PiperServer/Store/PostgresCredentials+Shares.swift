import Foundation

/// The share ledger in PostgreSQL: `piper_shares` and `piper_share_keys`, one for every server
/// on the database.
extension PostgresCredentials {
    public func addShare(_ record: ShareRecord, keeping: Int) throws {
        let json = try ShareLedgerRules.json(record)
        try transaction("share") { conn in
            try conn.execute("""
                INSERT INTO \(sharesTable) (id, followed, record) VALUES ($1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET followed = $2, record = $3
                """, [record.id, record.isFollowed ? "true" : "false", json])
            try conn.execute("DELETE FROM \(sharesTable) WHERE seq <= (SELECT seq FROM \(sharesTable) ORDER BY seq DESC LIMIT 1 OFFSET $1)",
                             [String(keeping)])
        }
    }

    public func updateShare(_ record: ShareRecord) throws {
        let json = try ShareLedgerRules.json(record)
        try run("share") { conn in
            try conn.execute("UPDATE \(sharesTable) SET followed = $1, record = $2 WHERE id = $3",
                             [record.isFollowed ? "true" : "false", json, record.id])
        }
    }

    public func recentShares(limit: Int) throws -> [ShareRecord] {
        try records("SELECT record FROM \(sharesTable) ORDER BY seq DESC LIMIT $1", [String(limit)])
    }

    public func shares(ids: [String]) throws -> [ShareRecord] {
        try ids.flatMap { try records("SELECT record FROM \(sharesTable) WHERE id = $1", [$0]) }
    }

    public func followedShares(limit: Int) throws -> [ShareRecord] {
        try records("SELECT record FROM \(sharesTable) WHERE followed ORDER BY seq DESC LIMIT $1", [String(limit)])
    }

    private func records(_ sql: String, _ parameters: [String?]) throws -> [ShareRecord] {
        try run("read") { conn in
            try conn.execute(sql, parameters).rows.compactMap { ShareLedgerRules.record(try $0.text("record")) }
        }
    }

    public func claimShareKey(_ claim: ShareKeyClaim, owner: String, now: Date, lease: TimeInterval) throws -> ShareKeyState {
        let expired = String(now.addingTimeInterval(-ShareLedgerRules.keyLifetime).credentialSeconds)
        let until = String(now.addingTimeInterval(lease).credentialSeconds)
        return try transaction("share key") { conn in
            try conn.execute("DELETE FROM \(keysTable) WHERE created <= $1 AND (records IS NOT NULL OR COALESCE(lease, created + $2) <= $1)",
                             [expired, String(ShareLedgerRules.formerLease)])
            let inserted = try conn.execute("""
                INSERT INTO \(keysTable) (key, device, fingerprint, records, created, owner, lease) VALUES ($1, $2, $3, NULL, $4, $5, $6)
                ON CONFLICT DO NOTHING
                """, [claim.key, claim.device, claim.fingerprint, String(now.credentialSeconds), owner, until])
            if inserted.affectedRows == 1 { return .claimed(done: "") }
            // Locked until this transaction ends: of two retries taking over a dead run's claim,
            // the second reads the first's lease.
            let row = try conn.execute("""
                SELECT fingerprint, records, COALESCE(lease, created + $3) AS lease, done FROM \(keysTable)
                    WHERE key = $1 AND device = $2 FOR UPDATE
                """, [claim.key, claim.device, String(ShareLedgerRules.formerLease)]).first
            // Gone between the insert and the select (expired): the retry claims it.
            guard let row else { return .running }
            let held = (fingerprint: try row.text("fingerprint"), records: try row.optionalText("records"), lease: try row.int64("lease"))
            if let state = ShareLedgerRules.state(of: held, for: claim, now: now) { return state }
            try conn.execute("UPDATE \(keysTable) SET owner = $3, lease = $4 WHERE key = $1 AND device = $2",
                             [claim.key, claim.device, owner, until])
            // NULL: the run before noted no finished items.
            return .claimed(done: try row.optionalText("done") ?? "")
        }
    }

    public func renewShareKeys(owner: String, until: Date) throws {
        try run("share key") { conn in
            try conn.execute("UPDATE \(keysTable) SET lease = $1 WHERE owner = $2 AND records IS NULL", [String(until.credentialSeconds), owner])
        }
    }

    public func noteShareKeyItems(_ claim: ShareKeyClaim, owner: String, done: String) throws {
        try run("share key") { conn in
            try conn.execute("UPDATE \(keysTable) SET done = $4 WHERE key = $1 AND device = $2 AND owner = $3 AND records IS NULL",
                             [claim.key, claim.device, owner, done])
        }
    }

    public func finishShareKey(_ claim: ShareKeyClaim, owner: String, records: String?, done: String, now: Date) throws {
        try transaction("share key") { conn in
            guard let records else {
                try conn.execute("""
                    UPDATE \(keysTable) SET owner = NULL, lease = 0, done = $4 WHERE key = $1 AND device = $2 AND owner = $3 AND records IS NULL
                    """, [claim.key, claim.device, owner, done])
                return
            }
            try conn.execute("""
                INSERT INTO \(keysTable) (key, device, fingerprint, records, created) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (key, device) DO UPDATE SET fingerprint = $3, records = $4, created = $5, owner = NULL, lease = NULL, done = NULL
                    WHERE \(keysTable).records IS NULL AND (\(keysTable).owner = $6 OR \(keysTable).owner IS NULL)
                """, [claim.key, claim.device, claim.fingerprint, records, String(now.credentialSeconds), owner])
            try conn.execute("""
                DELETE FROM \(keysTable) WHERE records IS NOT NULL AND created < (SELECT created FROM \(keysTable)
                    WHERE records IS NOT NULL ORDER BY created DESC LIMIT 1 OFFSET $1)
                """, [String(ShareLedgerRules.keysKept)])
        }
    }

    public func importShares(_ records: [ShareRecord], keys: [ShareKeyEntry]) throws {
        let rows = try records.reversed().map { ($0, try ShareLedgerRules.json($0)) }
        try transaction("import") { conn in
            for (record, json) in rows {
                try conn.execute("INSERT INTO \(sharesTable) (id, followed, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                 [record.id, record.isFollowed ? "true" : "false", json])
            }
            for key in keys {
                try conn.execute("INSERT INTO \(keysTable) (key, device, fingerprint, records, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                                 [key.key, key.device, key.fingerprint, key.record, String(key.created.credentialSeconds)])
            }
        }
    }
}
