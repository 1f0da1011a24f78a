import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes committed batches durable on a thread of its own: `fdatasync` of the WAL file, then the
/// batches' completions. `GroupCommit`'s writer commits with `synchronous=NORMAL` (its commits
/// write their WAL frames but do not sync them) and hands each batch over here, so the writer
/// commits the next batch while this one's sync runs; one sync covers every batch committed
/// before it started. A save is acknowledged only after a sync that began once its frames were
/// written, so a 200 is as durable as with `synchronous=FULL`.
///
/// NORMAL keeps what durability needs beyond the commits: a WAL restart's new header is synced
/// before frames are written after it, and checkpoints sync the WAL before copying it and the
/// database file before the WAL may start over (SQLite's own rules for NORMAL in WAL mode).
///
/// The WAL is synced through a descriptor of its own (Linux's `fdatasync` flushes the file,
/// whichever descriptor names it). SQLite keeps the file while a connection is open, but the
/// descriptor is checked against the path before each sync and opened again if the file changed.
///
/// `@unchecked Sendable`: `pending` and `stopping` are only touched while holding `condition`;
/// `sync` runs on the sync thread alone.
final class WALSync: @unchecked Sendable {
    typealias Completion = @Sendable ((any Error)?) -> Void

    private let condition = NSCondition()
    private var pending: [(completion: Completion, error: (any Error)?)] = []
    private var stopping = false
    private let sync: () throws -> Void

    /// Syncs the WAL of the database at `databasePath`.
    convenience init(databasePath: String) {
        let file = WALFile(path: databasePath + "-wal")
        self.init { try file.sync() }
    }

    /// Runs `sync` for each group of batches (tests pass their own).
    init(sync: @escaping () throws -> Void) {
        self.sync = sync
        let thread = Thread { [self] in self.loop() }
        thread.name = "piper-wal-sync"
        thread.start()
    }

    /// Queues a committed batch: each completion runs after the next sync, with its insert's own
    /// error if it had one, else the sync's.
    func hand(_ batch: [(completion: Completion, error: (any Error)?)]) {
        condition.lock()
        let wasEmpty = pending.isEmpty
        pending.append(contentsOf: batch)
        if wasEmpty { condition.signal() }
        condition.unlock()
    }

    /// Lets the thread exit once everything handed over is synced and completed.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        var batch: [(completion: Completion, error: (any Error)?)] = []
        while true {
            condition.lock()
            while pending.isEmpty && !stopping { condition.wait() }
            if pending.isEmpty {
                condition.unlock()
                return
            }
            swap(&batch, &pending)
            condition.unlock()

            var failure: (any Error)?
            do { try sync() } catch { failure = error }
            for job in batch { job.completion(job.error ?? failure) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// A WAL file's descriptor for `fdatasync`. Only used from the sync thread.
private final class WALFile {
    let path: String
    private var descriptor: Int32 = -1
    private var device: UInt64 = 0
    private var inode: UInt64 = 0

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func sync() throws {
        var named = stat()
        guard stat(path, &named) == 0 else { throw SyncError(operation: "stat", code: errno) }
        if descriptor < 0 || UInt64(named.st_dev) != device || UInt64(named.st_ino) != inode {
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw SyncError(operation: "open", code: errno) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0 else { throw SyncError(operation: "fstat", code: errno) }
            (device, inode) = (UInt64(opened.st_dev), UInt64(opened.st_ino))
        }
        guard fdatasync(descriptor) == 0 else { throw SyncError(operation: "fdatasync", code: errno) }
    }

    struct SyncError: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "WAL \(operation) failed: \(String(cString: strerror(code)))" }
    }
}
