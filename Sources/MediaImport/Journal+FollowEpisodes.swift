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

    package func meet(_ episodes: [MetEpisode], of follow: Follow, queueingInto journal: Journal) throws -> Int {
        // A journal of this state folder is this one: queued in this transaction, on this connection.
        let target = journal.state.url.standardizedFileURL == state.url.standardizedFileURL ? self : journal
        // One transaction for the whole feed: a feed of thousands of items is one synced write,
        // and a crash queues all of a check's episodes or none.
        return try db.write { _ in
            var known = try knownEpisodes(of: follow.id)
            var queued = 0
            for met in known.fresh(episodes) {
                var noted = met.episode
                if let download = met.download {
                    noted.downloadID = try target.queueFollowDownload(met.episode, direct: download, of: follow)
                    queued += 1
                }
                try noteEpisode(noted, of: follow.id, prefix: met.prefix)
            }
            return queued
        }
    }

    /// Queues the downloads of `episodes` (each as the job its `downloadID` names) in one
    /// transaction; returns the jobs' ids in order.
    package func queueFollowDownloads(_ episodes: [MetEpisode], of follow: Follow) throws -> [String] {
        guard !episodes.isEmpty else { return [] }
        return try db.write { _ in
            try episodes.compactMap { met in
                try met.download.map { try queueFollowDownload(met.episode, direct: $0, of: follow, id: met.episode.downloadID) }
            }
        }
    }

    /// Queues an episode's download from `direct` into the follow's folder (as the job `id` when
    /// given); returns the job's id (an earlier job's, when that file is queued there already).
    package func queueFollowDownload(_ episode: FollowEpisode, direct: URL, of follow: Follow, id: String? = nil) throws -> String {
        let (entry, _) = try add(url: episode.url, source: direct.absoluteString, kind: .url, folder: follow.folder, id: id,
                                 group: follow.id, title: episode.title, author: follow.title)
        return entry.id
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
