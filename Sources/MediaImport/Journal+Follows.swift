import Foundation
import PiperCore
import PiperSQLite

/// The download journal is the follow store of a machine on its own (the CLI, a server without
/// `--postgres`): follows and their episodes beside the downloads they queue, so a check's
/// episodes and their jobs are written in one transaction.
extension Journal: FollowStore {
    static let followsSchema = """
        CREATE TABLE follows (
            id TEXT PRIMARY KEY,
            url TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            folder TEXT NOT NULL,
            keep INTEGER,
            etag TEXT,
            last_modified TEXT,
            created REAL NOT NULL,
            last_check REAL,
            last_result TEXT,
            next_check REAL NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0,
            feed_interval REAL,
            stopped TEXT,
            checking_until REAL,
            checking_pid INTEGER
        );
        CREATE TABLE follow_episodes (
            follow_id TEXT NOT NULL REFERENCES follows(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            url TEXT NOT NULL,
            title TEXT,
            published REAL,
            download_id TEXT,
            prefix TEXT,
            seen REAL NOT NULL,
            removed REAL,
            PRIMARY KEY (follow_id, key)
        );
        CREATE INDEX follow_episodes_url ON follow_episodes(follow_id, url);
        CREATE INDEX follow_episodes_download ON follow_episodes(download_id);
        """

    static let followColumns = "id, url, title, folder, keep, etag, last_modified, created, last_check, last_result, next_check, failures, feed_interval, stopped"

    static func follow(_ row: Row) -> Follow {
        Follow(id: row.text(0), url: row.text(1), title: row.text(2), folder: row.text(3), keep: row.isNull(4) ? nil : row.int(4),
               etag: row.optionalText(5), lastModified: row.optionalText(6), created: Date(timeIntervalSince1970: row.double(7)),
               lastCheck: row.isNull(8) ? nil : Date(timeIntervalSince1970: row.double(8)), lastResult: row.optionalText(9),
               nextCheck: Date(timeIntervalSince1970: row.double(10)), failures: row.int(11),
               feedInterval: row.isNull(12) ? nil : row.double(12), stopped: row.optionalText(13))
    }

    /// Every follow, oldest first.
    public func follows() throws -> [Follow] {
        try db.read { try $0.query("SELECT \(Self.followColumns) FROM follows ORDER BY created, rowid", [], Self.follow) }
    }

    package func addFollow(_ follow: Follow, meeting episodes: [MetEpisode], queueingInto journal: Journal) throws -> Bool {
        try db.write { db in
            if try db.query("SELECT 1 FROM follows WHERE url = ?", [.text(follow.url)], { _ in true }).first == true { return false }
            try db.run("INSERT INTO follows (id, url, title, folder, keep, created, next_check) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [.text(follow.id), .text(follow.url), .text(follow.title), .text(follow.folder), follow.keep.map { .int(Int64($0)) } ?? .null,
                        .double(follow.created.timeIntervalSince1970), .double(follow.nextCheck.timeIntervalSince1970)])
            _ = try meet(episodes, of: follow, queueingInto: journal)
            try finishCheck(follow)
            return true
        }
    }

    /// Stops following (its episodes' files stay in the library).
    public func removeFollow(_ id: String) throws {
        try db.write { db in
            _ = try db.run("DELETE FROM follow_episodes WHERE follow_id = ?", [.text(id)])
            _ = try db.run("DELETE FROM follows WHERE id = ?", [.text(id)])
        }
    }

    /// Takes the follows due by `now` (or `only` those, due or not) for one checker: each is
    /// marked as being checked by this process until `lease` has passed, so another process does
    /// not check it too. A claim lapses at its time, or at once when its process is gone (a
    /// checker killed mid-check holds nothing).
    package func claimDueFollows(now: Date, only ids: [String]?, lease: TimeInterval) throws -> [Follow] {
        try db.write { db in
            let t = now.timeIntervalSince1970
            let rows = try db.query("SELECT \(Self.followColumns), checking_until, checking_pid FROM follows WHERE stopped IS NULL ORDER BY next_check",
                                    []) { row in
                (Self.follow(row), row.isNull(14) ? nil : row.double(14), row.isNull(15) ? nil : Int32(truncatingIfNeeded: row.int(15)))
            }
            let wanted = ids.map(Set.init)
            let due = rows.filter { follow, until, pid in
                let lapsed = until.map { $0 < t } ?? true
                let orphaned = pid.map { !Self.isAlive($0) } ?? false
                return (lapsed || orphaned) && (wanted?.contains(follow.id) ?? (follow.nextCheck.timeIntervalSince1970 <= t))
            }.map(\.0)
            for follow in due {
                _ = try db.run("UPDATE follows SET checking_until = ?, checking_pid = ? WHERE id = ?",
                               [.double(t + lease), .int(Int64(getpid())), .text(follow.id)])
            }
            return due
        }
    }

    /// Whether process `pid` exists (on this machine: the journal is local to it).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The earliest next check of a followed feed, nil when none is followed. A feed being
    /// checked is due again once its claim lapses (at once when its checker is gone).
    package func nextFollowCheck() throws -> Date? {
        let rows = try db.read { try $0.query("SELECT next_check, checking_until, checking_pid FROM follows WHERE stopped IS NULL", []) { row in
            (row.double(0), row.isNull(1) ? nil : row.double(1), row.isNull(2) ? nil : Int32(truncatingIfNeeded: row.int(2)))
        } }
        return rows.map { next, until, pid in
            guard let until, pid.map(Self.isAlive) ?? true else { return next }
            return max(next, until)
        }.min().map { Date(timeIntervalSince1970: $0) }
    }

    /// Records a check's end: what it found, when the next one is due, the validators for the
    /// next conditional GET, a moved address, a stop.
    package func finishCheck(_ follow: Follow) throws {
        try db.write { db in
            _ = try db.run("""
                UPDATE follows SET url = ?, title = ?, etag = ?, last_modified = ?, last_check = ?, last_result = ?, next_check = ?,
                failures = ?, feed_interval = ?, stopped = ?, checking_until = NULL, checking_pid = NULL WHERE id = ?
                """, [.text(follow.url), .text(follow.title), .optional(follow.etag), .optional(follow.lastModified),
                      follow.lastCheck.map { .double($0.timeIntervalSince1970) } ?? .null, .optional(follow.lastResult),
                      .double(follow.nextCheck.timeIntervalSince1970), .int(Int64(follow.failures)),
                      follow.feedInterval.map { .double($0) } ?? .null, .optional(follow.stopped), .text(follow.id)])
        }
    }

    /// The episodes `follow` has met.
    package func episodes(of follow: String) throws -> [FollowEpisode] {
        try db.read { try $0.query("SELECT key, url, title, published, download_id FROM follow_episodes WHERE follow_id = ? ORDER BY published DESC, seen DESC", [.text(follow)]) { row in
            FollowEpisode(key: row.text(0), url: row.text(1), title: row.optionalText(2),
                          published: row.isNull(3) ? nil : Date(timeIntervalSince1970: row.double(3)), downloadID: row.optionalText(4))
        } }
    }

    /// Notes an episode met (downloaded for the follow when `downloadID` is set); false when it
    /// was met before. `prefix` is what its file's name starts with (its date).
    @discardableResult
    package func noteEpisode(_ episode: FollowEpisode, of follow: String, prefix: String?) throws -> Bool {
        try db.write { db in
            try db.run("INSERT OR IGNORE INTO follow_episodes (follow_id, key, url, title, published, download_id, prefix, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [.text(follow), .text(episode.key), .text(episode.url), .optional(episode.title),
                        episode.published.map { .double($0.timeIntervalSince1970) } ?? .null, .optional(episode.downloadID),
                        .optional(prefix), .double(Date().timeIntervalSince1970)]) > 0
        }
    }

    /// What the file of the download `id` is named from, when a follow queued it (its date).
    package func followPrefix(download id: String) throws -> String? {
        try db.read { try $0.query("SELECT prefix FROM follow_episodes WHERE download_id = ? LIMIT 1", [.text(id)]) { $0.optionalText(0) }.first ?? nil }
    }
}
