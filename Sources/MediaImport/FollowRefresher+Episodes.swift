import Foundation
import PiperCore

extension FollowRefresher {
    /// A feed's entries as the episodes a check meets: those `queueing` picks are to be
    /// downloaded into the follow's folder (named by their date), the rest only noted.
    static func met(_ entries: [Playlist.Entry], queueing: (Playlist.Entry) -> Bool) -> [MetEpisode] {
        entries.map { entry in
            queueing(entry) ? MetEpisode(episode(entry), download: MediaLinks.directDownloadURL(for: entry.url), prefix: prefix(entry.published ?? Date()))
                : MetEpisode(episode(entry), download: nil, prefix: nil)
        }
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
    /// does not push one out before it arrives), and returns how many went. With a shared
    /// store, only the episodes this machine's journal downloaded are its to remove.
    func applyKeep(_ follow: Follow, store: any FollowStore, journal: Journal) throws -> Int {
        guard let keep = follow.keep else { return 0 }
        let landed = try store.keptEpisodes(of: follow.id).compactMap { episode -> (FollowEpisode, JournalEntry)? in
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
            try store.markEpisodeRemoved(episode.key, of: follow.id)
            removed += 1
        }
        return removed
    }
}
