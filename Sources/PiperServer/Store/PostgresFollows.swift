import Foundation
import MediaImport

/// The follows in PostgreSQL (`piper serve --postgres`): `piper_follows` and the episodes each
/// has met, `piper_follow_episodes` (`PostgresDatabase+Schema`, step "follows"), one for every
/// server on the database. A follow made through one server is listed by all; each feed is
/// checked by one server at a time, which claims it with a lease row (`lease_until`, on the
/// database's clock, so servers whose clocks differ agree) taken in one statement: of two
/// servers claiming at once, the second reads the first's lease and passes. A server that dies
/// mid-check holds the feed until its lease lapses. The episodes a check finds are queued into
/// the checking server's own journal (its agent downloads them), and noted here in the same
/// step, so no other server queues them again.
///
/// Sendable: the database handle is, and the rest is immutable.
public final class PostgresFollows: FollowStore, Sendable {
    let database: PostgresDatabase
    let followsTable = "piper_follows"
    let episodesTable = "piper_follow_episodes"
    /// Who holds this handle's claims (one server, or one test's refresher).
    let owner = UUID().uuidString.lowercased()

    public init(database: PostgresDatabase) {
        self.database = database
    }

    static let columns = "id, url, title, folder, keep, etag, last_modified, created, last_check, last_result, next_check, failures, feed_interval, stopped"

    /// A follow row, read by column name; a malformed one is an error.
    static func follow(_ row: PostgresRow) throws -> Follow {
        Follow(id: try row.text("id"), url: try row.text("url"), title: try row.text("title"), folder: try row.text("folder"),
               keep: try row.optionalInt64("keep").map { Int($0) }, etag: try row.optionalText("etag"),
               lastModified: try row.optionalText("last_modified"), created: Date(timeIntervalSince1970: try row.double("created")),
               lastCheck: try row.optionalDouble("last_check").map(Date.init(timeIntervalSince1970:)),
               lastResult: try row.optionalText("last_result"), nextCheck: Date(timeIntervalSince1970: try row.double("next_check")),
               failures: Int(try row.int64("failures")), feedInterval: try row.optionalDouble("feed_interval"),
               stopped: try row.optionalText("stopped"))
    }

    /// The database's clock, in seconds since 1970, as SQL.
    static let databaseNow = "extract(epoch from clock_timestamp())::double precision"

    package func follows() throws -> [Follow] {
        try database.run("read") { conn in
            try conn.execute("SELECT \(Self.columns) FROM \(followsTable) ORDER BY created, seq").rows.map(Self.follow)
        }
    }

    package func addFollow(_ follow: Follow, meeting episodes: [MetEpisode], queueingInto journal: Journal) throws -> Bool {
        try database.transaction("follow") { conn in
            let inserted = try conn.execute("""
                INSERT INTO \(followsTable) (id, url, title, folder, keep, created, next_check) VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (url) DO NOTHING
                """, [follow.id, follow.url, follow.title, follow.folder, follow.keep.map(String.init), Self.seconds(follow.created),
                      Self.seconds(follow.nextCheck)])
            guard inserted.affectedRows == 1 else { return false }
            _ = try meet(episodes, of: follow, on: conn, queueingInto: journal)
            try finish(follow, on: conn)
            return true
        }
    }

    package func removeFollow(_ id: String) throws {
        try database.run("unfollow") { conn in _ = try conn.execute("DELETE FROM \(followsTable) WHERE id = $1", [id]) }
    }

    package func claimDueFollows(now: Date, only ids: [String]?, lease: TimeInterval) throws -> [Follow] {
        // Due by `now`, or the follows named (as a text[] literal, each element quoted).
        let which = ids == nil ? "next_check <= $3::double precision" : "id = ANY($3::text[])"
        let selected = ids.map { "{" + $0.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}" } ?? Self.seconds(now)
        return try database.run("claim") { conn in
            try conn.execute("""
                UPDATE \(followsTable) SET lease_until = \(Self.databaseNow) + $1::double precision, lease_owner = $2
                WHERE stopped IS NULL AND (lease_until IS NULL OR lease_until < \(Self.databaseNow)) AND \(which)
                RETURNING \(Self.columns)
                """, [String(lease), owner, selected]).rows.map(Self.follow).sorted { $0.nextCheck < $1.nextCheck }
        }
    }

    package func nextFollowCheck() throws -> Date? {
        try database.run("read") { conn in
            // A lease is on the database's clock: how long it still runs, from this server's now.
            let row = try conn.execute("""
                SELECT min(CASE WHEN lease_until IS NULL THEN next_check
                    ELSE GREATEST(next_check, $1::double precision + lease_until - \(Self.databaseNow)) END) AS due
                FROM \(followsTable) WHERE stopped IS NULL
                """, [Self.seconds(Date())]).onlyRow()
            return try row.optionalDouble("due").map(Date.init(timeIntervalSince1970:))
        }
    }

    package func finishCheck(_ follow: Follow) throws {
        try database.run("follow") { conn in try finish(follow, on: conn) }
    }

    /// Records a check's end and lets this handle's claim go (a claim another server took
    /// over after this one's lapsed stays that server's).
    private func finish(_ follow: Follow, on conn: PostgresConnection) throws {
        try conn.execute("""
            UPDATE \(followsTable) SET url = $2, title = $3, etag = $4, last_modified = $5, last_check = $6, last_result = $7,
                next_check = $8, failures = $9, feed_interval = $10, stopped = $11,
                lease_until = CASE WHEN lease_owner IS NULL OR lease_owner = $12 THEN NULL ELSE lease_until END,
                lease_owner = CASE WHEN lease_owner = $12 THEN NULL ELSE lease_owner END
            WHERE id = $1
            """, [follow.id, follow.url, follow.title, follow.etag, follow.lastModified, follow.lastCheck.map(Self.seconds),
                  follow.lastResult, Self.seconds(follow.nextCheck), String(follow.failures), follow.feedInterval.map { String($0) },
                  follow.stopped, owner])
    }

    static func seconds(_ date: Date) -> String { String(date.timeIntervalSince1970) }
}
