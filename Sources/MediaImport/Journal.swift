import Foundation
import PiperCore
import PiperSQLite

/// The durable download journal: `downloads/journal.sqlite` (WAL, synchronous=FULL), the
/// source of truth for every shared media item. Every state change is its own committed
/// transaction, so whatever process runs next picks up exactly where the last one stopped.
///
/// Not Sendable by convention: open a `Journal` where you use it (WAL lets several processes
/// and threads share the file). Its connection is a `DatabaseQueue`, so each call runs alone on
/// it and every write is one transaction.
public final class Journal {
    package let state: StateFolder
    let db: DatabaseQueue

    static let migrations: [Migration] = [
        """
        CREATE TABLE IF NOT EXISTS downloads (
            id TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            source TEXT NOT NULL,
            kind TEXT NOT NULL,
            folder TEXT,
            state TEXT NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0,
            total INTEGER,
            file TEXT,
            reason TEXT,
            etag TEXT,
            last_modified TEXT,
            created REAL NOT NULL,
            updated REAL NOT NULL
        );
        CREATE INDEX IF NOT EXISTS downloads_state ON downloads(state, created);
        CREATE UNIQUE INDEX IF NOT EXISTS downloads_active_source ON downloads(source)
            WHERE state IN ('queued', 'downloading', 'downloaded');
        """,
        """
        ALTER TABLE downloads ADD COLUMN library_path TEXT;
        ALTER TABLE downloads ADD COLUMN rate REAL;
        ALTER TABLE downloads ADD COLUMN not_before REAL;
        ALTER TABLE downloads ADD COLUMN later_tries INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE downloads ADD COLUMN group_id TEXT;
        ALTER TABLE downloads ADD COLUMN position INTEGER;
        ALTER TABLE downloads ADD COLUMN title TEXT;
        ALTER TABLE downloads ADD COLUMN author TEXT;
        CREATE INDEX IF NOT EXISTS downloads_group ON downloads(group_id, position);
        CREATE INDEX IF NOT EXISTS downloads_source ON downloads(source, state);
        """,
        // One active job per source and folder (was: per source), so a playlist shared into a
        // second folder while its files still download gets jobs of its own and that folder is
        // whole; a single share of a link already downloading still joins its job (`add`).
        """
        DROP INDEX IF EXISTS downloads_active_source;
        CREATE UNIQUE INDEX downloads_active_source_folder ON downloads(source, COALESCE(folder, ''))
            WHERE state IN ('queued', 'downloading', 'downloaded');
        """,
        // Followed feeds (`piper follow`) and every episode each one has met, by its identity,
        // so an episode is fetched once whatever its feed later does to its enclosure URL.
        .sql(Journal.followsSchema),
    ]

    /// Where the journal lives, so a listing can tell "no journal yet" from an empty one without
    /// creating the file.
    public static func databaseFile(in state: StateFolder) -> URL {
        state.downloads.appendingPathComponent("journal.sqlite")
    }

    /// Opens (creating and migrating when needed) the journal of `state`.
    public init(state: StateFolder) throws {
        self.state = state
        try state.ensure(state.downloads)
        db = try DatabaseQueue(path: Self.databaseFile(in: state).path, migrations: Self.migrations)
    }

    static let columns = "id, url, source, kind, folder, state, bytes, total, file, reason, etag, last_modified, created, updated, library_path, rate, not_before, later_tries, group_id, position, title, author"

    static func entry(_ row: Row) -> JournalEntry {
        JournalEntry(
            id: row.text(0), url: row.text(1), source: row.text(2),
            kind: DownloadKind(rawValue: row.text(3)) ?? .url, folder: row.optionalText(4),
            state: DownloadState(rawValue: row.text(5)) ?? .failed, bytes: row.int64(6),
            total: row.isNull(7) ? nil : row.int64(7), file: row.optionalText(8), reason: row.optionalText(9),
            etag: row.optionalText(10), lastModified: row.optionalText(11),
            libraryPath: row.optionalText(14), rate: row.isNull(15) ? nil : row.double(15),
            notBefore: row.isNull(16) ? nil : Date(timeIntervalSince1970: row.double(16)), laterTries: row.int(17),
            group: row.optionalText(18), position: row.isNull(19) ? nil : row.int(19),
            title: row.optionalText(20), author: row.optionalText(21),
            created: Date(timeIntervalSince1970: row.double(12)), updated: Date(timeIntervalSince1970: row.double(13)))
    }

    /// Adds an entry, unless the same source is already queued or in progress: then that
    /// entry comes back with `alreadyQueued` true. A playlist's entry (`group`) joins only a job
    /// for the same folder: its folder must get its own file, so a job bound for another folder
    /// does not stand in for it. An entry added already ended (`initial` not active) joins none.
    /// One immediate transaction, so two sharing processes can't both add it.
    package func add(url: String, source: String, kind: DownloadKind, folder: String?,
                    state initial: DownloadState = .queued, id chosenID: String? = nil,
                    group: String? = nil, position: Int? = nil, title: String? = nil,
                    author: String? = nil) throws -> (entry: JournalEntry, alreadyQueued: Bool) {
        try db.write { db in
            if DownloadState.active.contains(initial),
               let existing = try group == nil ? activeEntry(source: source) : activeEntry(source: source, folder: folder) {
                return (existing, true)
            }
            let now = Date().timeIntervalSince1970
            let id = chosenID ?? Self.newID()
            try db.run("INSERT INTO downloads (id, url, source, kind, folder, state, created, updated, group_id, position, title, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [.text(id), .text(url), .text(source), .text(kind.rawValue), .optional(folder),
                        .text(initial.rawValue), .double(now), .double(now), .optional(group), position.map { .int(Int64($0)) } ?? .null,
                        .optional(title), .optional(author)])
            guard let entry = try self.entry(id: id) else { throw SQLiteError(code: 1, message: "inserted entry vanished") }
            return (entry, false)
        }
    }

    /// The newest entry for `source` whose content reached the library (the download archive).
    package func libraryEntry(source: String) throws -> JournalEntry? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE source = ? AND state IN ('imported', 'duplicate') ORDER BY updated DESC LIMIT 1",
                     [.text(source)], Self.entry).first }
    }

    /// The active entry for `source` bound for `folder` (nil: the library's top).
    func activeEntry(source: String, folder: String?) throws -> JournalEntry? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE source = ? AND COALESCE(folder, '') = ? AND state IN ('queued', 'downloading', 'downloaded') LIMIT 1",
                     [.text(source), .text(folder ?? "")], Self.entry).first }
    }

    func activeEntry(source: String) throws -> JournalEntry? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE source = ? AND state IN ('queued', 'downloading', 'downloaded') LIMIT 1",
                     [.text(source)], Self.entry).first }
    }

    /// The entry with this id, or nil; `share --wait` polls it.
    public func entry(id: String) throws -> JournalEntry? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE id = ?", [.text(id)], Self.entry).first }
    }

    /// The entry whose file is (or is about to be) `name` in the inbox.
    package func entry(inboxFile name: String) throws -> JournalEntry? {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE file = ? AND state IN ('downloaded', 'landed') ORDER BY updated DESC LIMIT 1",
                     [.text(name)], Self.entry).first }
    }

    /// The entries of one playlist's group, in playlist order.
    public func entries(group: String) throws -> [JournalEntry] {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE group_id = ? ORDER BY position, created", [.text(group)], Self.entry) }
    }

    /// Every entry, oldest first.
    public func entries() throws -> [JournalEntry] {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads ORDER BY created, rowid", [], Self.entry) }
    }

    package func entries(in state: DownloadState) throws -> [JournalEntry] {
        try db.read { try $0.query("SELECT \(Self.columns) FROM downloads WHERE state = ? ORDER BY created, rowid", [.text(state.rawValue)], Self.entry) }
    }

    /// How many entries are in `states` (changed at or after `since`, when given).
    package func count(in states: [DownloadState], since: Date? = nil) throws -> Int {
        let list = states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return try db.read { try $0.query("SELECT COUNT(*) FROM downloads WHERE state IN (\(list)) AND updated >= ?",
                            [.double(since?.timeIntervalSince1970 ?? 0)]) { $0.int(0) }.first ?? 0 }
    }

    /// Takes the oldest queued entry that is due (not waiting to be tried later) and marks it
    /// downloading, atomically.
    package func claimNextQueued(now: Date = Date()) throws -> JournalEntry? {
        try db.write { db in
            guard let next = try db.query("SELECT \(Self.columns) FROM downloads WHERE state = 'queued' AND (not_before IS NULL OR not_before <= ?) ORDER BY created, rowid LIMIT 1",
                                          [.double(now.timeIntervalSince1970)], Self.entry).first else { return nil }
            try setState(next.id, .downloading, reason: nil)
            return try entry(id: next.id)
        }
    }

    /// Queued entries due now, plus downloaded ones (what a pass can work on at once).
    package func dueCount(now: Date = Date()) throws -> Int {
        try db.read { try $0.query("SELECT COUNT(*) FROM downloads WHERE (state = 'queued' AND (not_before IS NULL OR not_before <= ?)) OR state = 'downloaded'",
                     [.double(now.timeIntervalSince1970)]) { $0.int(0) }.first ?? 0 }
    }

    /// When the next entry waiting to be tried later is due, if any.
    package func nextLaterTry() throws -> Date? {
        try db.read { try $0.query("SELECT MIN(not_before) FROM downloads WHERE state = 'queued' AND not_before IS NOT NULL", []) { row in
            row.isNull(0) ? nil : Date(timeIntervalSince1970: row.double(0))
        }.first ?? nil }
    }

    /// Puts a job whose server could not be reached back in the queue, due at `due`; its
    /// partial file stays for the resume.
    package func retryLater(_ id: String, at due: Date, reason: String) throws {
        try db.write { try $0.run("UPDATE downloads SET state = 'queued', not_before = ?, later_tries = later_tries + 1, reason = ?, updated = ? WHERE id = ?",
                   [.double(due.timeIntervalSince1970), .text(reason), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    /// A download between two attempts: the last attempt's failure and when the next is due,
    /// so every listing says it is retrying and why (`JobStatus`).
    package func setRetrying(_ id: String, reason: String, until due: Date) throws {
        try db.write { try $0.run("UPDATE downloads SET reason = ?, not_before = ?, updated = ? WHERE id = ? AND state = 'downloading'",
                   [.text(reason), .double(due.timeIntervalSince1970), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    /// After a crash: entries left `downloading` by a dead process go back to the queue, due
    /// now; their partial files are resumed. Call only while holding the agent lock.
    @discardableResult
    package func requeueInterrupted() throws -> Int {
        try db.write { try $0.run("UPDATE downloads SET state = 'queued', not_before = NULL, updated = ? WHERE state = 'downloading' AND kind = 'url'",
                   [.double(Date().timeIntervalSince1970)]) }
    }

    package func setState(_ id: String, _ state: DownloadState, reason: String?) throws {
        try db.write { try $0.run("UPDATE downloads SET state = ?, reason = ?, updated = ? WHERE id = ?",
                   [.text(state.rawValue), .optional(reason), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    /// Bytes so far, the size when known and the current rate (bytes a second), for `piper downloads`.
    package func setProgress(_ id: String, bytes: Int64, total: Int64?, rate: Double? = nil) throws {
        try db.write { try $0.run("UPDATE downloads SET bytes = ?, total = COALESCE(?, total), rate = ?, updated = ? WHERE id = ?",
                   [.int(bytes), total.map { .int($0) } ?? .null, rate.map { .double($0) } ?? .null,
                    .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    /// Keeps what the server said about the resource, for a resume by any later process.
    package func setMetadata(_ id: String, _ meta: DownloadMetadata) throws {
        try db.write { try $0.run("UPDATE downloads SET file = ?, total = ?, etag = ?, last_modified = ?, updated = ? WHERE id = ?",
                   [.text(meta.fileName), meta.total.map { .int($0) } ?? .null, .optional(meta.etag),
                    .optional(meta.lastModified), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    package func setFile(_ id: String, _ name: String) throws {
        try db.write { try $0.run("UPDATE downloads SET file = ?, updated = ? WHERE id = ?",
                   [.text(name), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    package func markDownloaded(_ id: String, bytes: Int64, file: String) throws {
        try db.write { try $0.run("UPDATE downloads SET state = 'downloaded', bytes = ?, total = ?, file = ?, reason = NULL, updated = ? WHERE id = ?",
                   [.int(bytes), .int(bytes), .text(file), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    package func markLanded(_ id: String, file: String) throws {
        try db.write { try $0.run("UPDATE downloads SET state = 'landed', file = ?, reason = NULL, updated = ? WHERE id = ?",
                   [.text(file), .double(Date().timeIntervalSince1970), .text(id)]) }
    }

    package func markFailed(_ id: String, reason: String) throws {
        try setState(id, .failed, reason: reason)
    }

    /// Marks landed entries imported (or duplicate) after the importer has run over the
    /// inbox, with where each one is in the library, in one transaction.
    package func markImported(_ results: [JournalOutcome]) throws {
        guard !results.isEmpty else { return }
        try db.write { db in
            for result in results {
                try db.run("UPDATE downloads SET state = ?, library_path = ?, reason = ?, updated = ? WHERE id = ?",
                           [.text(result.state.rawValue), .optional(result.libraryPath), .optional(result.note),
                            .double(Date().timeIntervalSince1970), .text(result.id)])
            }
        }
    }

    /// A short random id, unique enough for a personal queue and easy to type.
    package static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
    }
}
