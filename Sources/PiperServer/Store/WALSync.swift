import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes what the writer has committed to a WAL file durable: `fdatasync` on the file, from
/// whichever thread calls it. With the writer on `synchronous=NORMAL`, SQLite's commit writes the
/// transaction's frames (its commit marker last) without syncing; a `sync()` that starts after
/// that commit returned and then succeeds has put every one of those frames on disk, which is
/// what `synchronous=FULL` does inside the commit. Checkpoints still sync the WAL before copying
/// any of its pages into the database file (NORMAL keeps those syncs), so no page reaches the
/// file before its frame is durable.
///
/// `@unchecked Sendable`: `descriptor` and `inode` are only touched by the one thread calling
/// `sync()` (`GroupCommit`'s syncer).
final class WALSync: @unchecked Sendable {
    let path: String
    private var descriptor: Int32 = -1
    private var inode: UInt64 = 0

    /// `path` is the WAL file, the database's path plus `-wal`.
    init(walPath path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Syncs the WAL file (reopened if SQLite replaced it since the last call).
    func sync() throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "Cannot find the WAL file \(path): \(String(cString: strerror(errno)))") }
        if descriptor < 0 || UInt64(info.st_ino) != inode {
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(description: "Cannot open the WAL file \(path): \(String(cString: strerror(errno)))") }
            inode = UInt64(info.st_ino)
        }
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw Failure(description: "fdatasync of \(path) failed: \(String(cString: strerror(errno)))") }
        }
    }
}
