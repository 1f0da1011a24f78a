import Foundation
import MediaImport

/// The episodes each follow has met, in `piper_follow_episodes`: the record that keeps every
/// server from queueing an episode twice, whichever server met it first.
extension PostgresFollows {
    package func meet(_ episodes: [MetEpisode], of follow: Follow, queueingInto journal: Journal) throws -> Int {
        try database.transaction("episodes") { conn in try meet(episodes, of: follow, on: conn, queueingInto: journal) }
    }

    /// Inside the caller's transaction: locks the follow's row (two checks of one follow, say
    /// one whose lease lapsed and its successor, meet episodes one after the other), notes the
    /// episodes it had not met with their jobs' ids chosen here, then queues those jobs into
    /// `journal`. The journal commits before this transaction does: a crash between the two
    /// leaves the jobs queued and the episodes unnoted, and the journal does not queue the same
    /// file into the same folder twice while the first job is alive.
    func meet(_ episodes: [MetEpisode], of follow: Follow, on conn: PostgresConnection, queueingInto journal: Journal) throws -> Int {
        guard try conn.execute("SELECT id FROM \(followsTable) WHERE id = $1 FOR UPDATE", [follow.id]).first != nil else { return 0 }
        var known = KnownEpisodes()
        for row in try conn.execute("SELECT key, url, title, published, download_id FROM \(episodesTable) WHERE follow_id = $1", [follow.id]).rows {
            known.insert(try Self.episode(row))
        }
        let fresh = known.fresh(episodes).map { met -> MetEpisode in
            var met = met
            if met.download != nil { met.episode.downloadID = Journal.newID() }
            return met
        }
        let now = Self.seconds(Date())
        for met in fresh {
            let episode = met.episode
            try conn.execute("""
                INSERT INTO \(episodesTable) (follow_id, key, url, title, published, download_id, prefix, seen) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT DO NOTHING
                """, [follow.id, episode.key, episode.url, episode.title, episode.published.map(Self.seconds), episode.downloadID, met.prefix, now])
        }
        let queued = fresh.filter { $0.download != nil }
        let ids = try journal.queueFollowDownloads(queued, of: follow)
        // A file queued there already keeps its job: the episode points at that one.
        for (met, id) in zip(queued, ids) where id != met.episode.downloadID {
            try conn.execute("UPDATE \(episodesTable) SET download_id = $3 WHERE follow_id = $1 AND key = $2", [follow.id, met.episode.key, id])
        }
        return queued.count
    }

    package func episodes(of follow: String) throws -> [FollowEpisode] {
        try episodes("""
            SELECT key, url, title, published, download_id FROM \(episodesTable) WHERE follow_id = $1 ORDER BY published DESC NULLS LAST, seen DESC
            """, follow)
    }

    package func keptEpisodes(of follow: String) throws -> [FollowEpisode] {
        try episodes("""
            SELECT key, url, title, published, download_id FROM \(episodesTable)
            WHERE follow_id = $1 AND download_id IS NOT NULL AND removed IS NULL ORDER BY COALESCE(published, seen) DESC, seen DESC
            """, follow)
    }

    package func markEpisodeRemoved(_ key: String, of follow: String) throws {
        try database.run("episode") { conn in
            _ = try conn.execute("UPDATE \(episodesTable) SET removed = $3 WHERE follow_id = $1 AND key = $2", [follow, key, Self.seconds(Date())])
        }
    }

    package func followPrefix(download id: String) throws -> String? {
        try database.run("read") { conn in
            try conn.execute("SELECT prefix FROM \(episodesTable) WHERE download_id = $1 LIMIT 1", [id]).first?.optionalText("prefix")
        }
    }

    private func episodes(_ sql: String, _ follow: String) throws -> [FollowEpisode] {
        try database.run("read") { conn in try conn.execute(sql, [follow]).rows.map(Self.episode) }
    }

    /// An episode row, read by column name; a malformed one is an error.
    static func episode(_ row: PostgresRow) throws -> FollowEpisode {
        FollowEpisode(key: try row.text("key"), url: try row.text("url"), title: try row.optionalText("title"),
                      published: try row.optionalDouble("published").map(Date.init(timeIntervalSince1970:)),
                      downloadID: try row.optionalText("download_id"))
    }
}
