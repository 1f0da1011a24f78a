import Foundation
import PiperCore

extension FollowRefresher {
    /// Notes every entry the follow has not met; those `queueing` picks are queued into its
    /// folder (named by their date). Returns how many were queued.
    /// One transaction for the whole feed: a feed of thousands of items is one synced write,
    /// and a crash queues all of a check's episodes or none.
    func note(_ entries: [Playlist.Entry], of follow: Follow, queueing: (Playlist.Entry) -> Bool, journal: Journal) throws -> Int {
        try journal.db.write { _ in try noteEach(entries, of: follow, queueing: queueing, journal: journal) }
    }

    private func noteEach(_ entries: [Playlist.Entry], of follow: Follow, queueing: (Playlist.Entry) -> Bool, journal: Journal) throws -> Int {
        var queued = 0
        var known = try journal.knownEpisodes(of: follow.id)
        for entry in entries {
            let episode = Self.episode(entry)
            // A feed that lists one item twice queues it once.
            guard !known.contains(episode) else { continue }
            known.insert(episode)
            if queueing(entry) {
                _ = try journal.queueEpisode(episode, direct: MediaLinks.directDownloadURL(for: entry.url), of: follow,
                                             prefix: Self.prefix(entry.published ?? Date()))
                queued += 1
            } else {
                try journal.noteEpisode(episode, of: follow.id, prefix: nil)
            }
        }
        return queued
    }

    /// The episode an entry is: known by its GUID, else its enclosure URL.
    static func episode(_ entry: Playlist.Entry) -> FollowEpisode {
        let guid = entry.guid?.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = guid.flatMap { $0.isEmpty ? nil : "guid:" + $0 } ?? "url:" + entry.url.absoluteString
        return FollowEpisode(key: key, url: entry.url.absoluteString, title: entry.title, published: entry.published, downloadID: nil)
    }

    /// An episode's file name starts with its date (`2026-12-03 name.mp3`), so the folder lists
    /// the show in the order it was published.
    static func prefix(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(secondsFromGMT: 0)!, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// `--keep N`: removes from the library the files of the episodes this follow downloaded
    /// beyond the newest N that have landed (never anything else: an episode still on its way
    /// does not push one out before it arrives), and returns how many went.
    func applyKeep(_ follow: Follow, journal: Journal) throws -> Int {
        guard let keep = follow.keep else { return 0 }
        let landed = try journal.keptEpisodes(of: follow.id).compactMap { episode -> (FollowEpisode, JournalEntry)? in
            guard let id = episode.downloadID, let entry = try journal.entry(id: id),
                  entry.state == .imported || entry.state == .duplicate else { return nil }
            return (episode, entry)
        }
        guard landed.count > keep else { return 0 }
        let importer = try LibraryImporter(state: state, catalog: catalog)
        var removed = 0
        for (episode, entry) in landed.dropFirst(keep) {
            if let path = entry.libraryPath, path.hasPrefix(follow.folder + "/") {
                do { try importer.remove(path) } catch LibraryImporter.RemoveError.noMatch {}
            }
            try journal.markEpisodeRemoved(episode.key, of: follow.id)
            removed += 1
        }
        return removed
    }
}
