import Foundation
import PiperCore
import PiperSQLite

/// The episodes each follow has met (`follow_episodes`).
extension Journal {
    /// What `follow` has met, read once per check: each item of a feed of thousands is then
    /// looked up in memory rather than by a query of its own.
    package func knownEpisodes(of follow: String) throws -> KnownEpisodes {
        var known = KnownEpisodes()
        try db.read { db in
            _ = try db.query("SELECT key, url, title, published FROM follow_episodes WHERE follow_id = ?", [.text(follow)]) { row in
                known.insert(FollowEpisode(key: row.text(0), url: row.text(1), title: row.optionalText(2),
                                           published: row.isNull(3) ? nil : Date(timeIntervalSince1970: row.double(3)), downloadID: nil))
            }
        }
        return known
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

/// The episodes a follow has met, by identity, enclosure URL, and title with date (a feed
/// without GUIDs that moved its files).
package struct KnownEpisodes {
    private var keys = Set<String>()
    private var urls = Set<String>()
    private var titled = Set<String>()

    package func contains(_ episode: FollowEpisode) -> Bool {
        keys.contains(episode.key) || urls.contains(episode.url) || Self.titled(episode).map(titled.contains) == true
    }

    package mutating func insert(_ episode: FollowEpisode) {
        keys.insert(episode.key)
        urls.insert(episode.url)
        if let key = Self.titled(episode) { titled.insert(key) }
    }

    private static func titled(_ episode: FollowEpisode) -> String? {
        guard let title = episode.title, let published = episode.published else { return nil }
        return "\(title)\u{1F}\(published.timeIntervalSince1970)"
    }
}
