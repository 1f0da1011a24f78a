import Foundation
import PiperSQLite

/// Copies committed WAL pages back into the database file on its own thread and connection, so
/// the commit thread never stops for it. SQLite's automatic checkpoint would run inside the
/// commit that crosses the threshold, holding up every save queued behind it.
///
/// Durability is unchanged: a save is durable once its commit's WAL frames are synced
/// (`synchronous=FULL`); a checkpoint only moves already-durable pages. PASSIVE checkpoints never
/// block the writer or readers.
///
/// While saves keep coming, a background pass never quite catches up with the writer, and SQLite
/// rewinds the WAL only after a pass that did. So the writer keeps an automatic threshold (ten
/// times SQLite's default): when it is crossed, the writer's own pass has only the frames of the
/// last interval left to copy, and the WAL then starts over from its beginning (about 40 MB at
/// most). Shorter intervals or a lower threshold measured slower: every pass syncs both files.
///
/// `@unchecked Sendable`: `dirty` and `stopping` are only touched while holding `condition`;
/// `database` serializes itself.
final class Checkpointer: @unchecked Sendable {
    /// The writer's own automatic checkpoint threshold, in pages (SQLite's default is 1000).
    static let writerAutoCheckpointPages = 10_000
    /// The least time between two background checkpoints.
    static let interval: TimeInterval = 0.1

    private let condition = NSCondition()
    private var dirty = false
    private var stopping = false
    private let database: DatabaseQueue

    init(path: String) throws {
        database = try DatabaseQueue(path: path)
    }

    /// Starts the background thread.
    func start() {
        let thread = Thread { [self] in self.loop() }
        thread.name = "piper-checkpoint"
        thread.start()
    }

    /// Notes that a commit added pages to the WAL.
    func noteCommit() {
        condition.lock()
        if !dirty {
            dirty = true
            condition.signal()
        }
        condition.unlock()
    }

    /// Lets the thread exit.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// One PASSIVE checkpoint: how many frames the WAL holds and how many are now in the file.
    @discardableResult
    func checkpoint() throws -> (walFrames: Int, checkpointed: Int) {
        let rows = try database.writeWithoutTransaction {
            try $0.query("PRAGMA wal_checkpoint(PASSIVE)") { ($0.int(1), $0.int(2)) }
        }
        return rows.first ?? (0, 0)
    }

    private func loop() {
        while true {
            condition.lock()
            while !dirty && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            dirty = false
            condition.unlock()
            _ = try? checkpoint()           // a failed pass is retried after the next commit
            Thread.sleep(forTimeInterval: Self.interval)
        }
    }
}
