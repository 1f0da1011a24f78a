import Foundation
import PiperCore
import PiperSQLite

/// The episodes each follow has met (`follow_episodes`).
extension Journal {
    /// Whether `follow` has met this episode: by its identity, its enclosure URL, or its title
    /// and date (a feed without GUIDs that moved its files).
    package func knowsEpisode(_ episode: FollowEpisode, of follow: String) throws -> Bool {
        let titled: [SQLValue] = [.optional(episode.title), episode.published.map { .double($0.timeIntervalSince1970) } ?? .null]
        return try db.read { try $0.query("""
            SELECT 1 FROM follow_episodes WHERE follow_id = ? AND (key = ? OR url = ?
                OR (title IS NOT NULL AND published IS NOT NULL AND title = ? AND published = ?)) LIMIT 1
            """, [.text(follow), .text(episode.key), .text(episode.url)] + titled) { _ in true }.first ?? false }
    }

    /// Queues an episode's download into the follow's folder and notes the episode, in one
    /// transaction: a crash leaves both or neither. Returns the job's id.
    package func queueEpisode(_ episode: FollowEpisode, direct: URL, of follow: Follow, prefix: String) throws -> String {
        try db.write { _ in
            let (entry, _) = try add(url: episode.url, source: direct.absoluteString, kind: .url, folder: follow.folder,
                                     group: follow.id, title: episode.title, author: follow.title)
            var noted = episode
            noted.downloadID = entry.id
            try noteEpisode(noted, of: follow.id, prefix: prefix)
            return entry.id
        }
    }

    /// The episodes downloaded for `follow` and still kept, newest first.
    package func keptEpisodes(of follow: String) throws -> [FollowEpisode] {
        try db.read { try $0.query("""
            SELECT key, url, title, published, download_id FROM follow_episodes
            WHERE follow_id = ? AND download_id IS NOT NULL AND removed IS NULL ORDER BY COALESCE(published, seen) DESC, seen DESC
            """, [.text(follow)]) { row in
            FollowEpisode(key: row.text(0), url: row.text(1), title: row.optionalText(2),
                          published: row.isNull(3) ? nil : Date(timeIntervalSince1970: row.double(3)), downloadID: row.optionalText(4))
        } }
    }

    /// Marks an episode's file as removed by the follow's `--keep`.
    package func markEpisodeRemoved(_ key: String, of follow: String) throws {
        try db.write { try $0.run("UPDATE follow_episodes SET removed = ? WHERE follow_id = ? AND key = ?",
                                  [.double(Date().timeIntervalSince1970), .text(follow), .text(key)]) }
    }
}
