import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A hidden file Piper writes in a user's folder (the library, the inbox) before renaming it
/// into place: `.piper-<UUID>.part`. Its writer holds an open-file-description write lock on it
/// for as long as it writes, which the kernel drops when the writer's process dies, however it
/// dies. So a temp file nobody holds a lock on is an orphan a dead writer left, and
/// `removeOrphans` deletes it (a PID in the name could be reused by another process; a lock
/// cannot outlive its holder).
final class TemporaryFile {
    static let prefix = ".piper-"
    static let suffix = ".part"
    let url: URL
    private var fd: Int32

    init(in folder: URL) throws {
        url = folder.appendingPathComponent("\(Self.prefix)\(UUID().uuidString)\(Self.suffix)")
        fd = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ImportError.io("cannot create a file in \(folder.path): \(String(cString: strerror(errno)))") }
        guard Self.lock(fd, wait: false) else {
            Glibc.close(fd)
            throw ImportError.io("cannot lock \(url.lastPathComponent)")
        }
    }

    deinit { close() }

    /// Copies `source`'s bytes in and syncs them; a full disk says so.
    /// Copies `source` in, synced; `checkpoints` hears `.libraryCopy` once the first chunk is
    /// written.
    func copy(from source: URL, checkpoints: (any AgentCheckpoints)? = nil) throws {
        var firstChunk = false
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ImportError.io("cannot read \(source.lastPathComponent): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(input) }
        var info = stat()
        if fstat(input, &info) == 0 { fchmod(fd, info.st_mode & 0o7777) }   // the mode the importer gave the file
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw ImportError.io("cannot read \(source.lastPathComponent): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            var offset = 0
            defer { if offset == n && !firstChunk { firstChunk = true; checkpoints?.reached(.libraryCopy) } }
            while offset < n {
                let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, n - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw ImportError.io("cannot write into the library: \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
        guard fsync(fd) == 0 else { throw ImportError.io("cannot sync the file into the library: \(String(cString: strerror(errno)))") }
    }


    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)   // releases the lock
        fd = -1
    }

    /// A write lock on the whole file, held by this open file description.
    static func lock(_ fd: Int32, wait: Bool) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        // F_OFD_SETLK(W), 37 and 38 in Linux's <fcntl.h>, behind _GNU_SOURCE, which the Glibc module leaves out.
        return fcntl(fd, wait ? 38 : 37, &lock) == 0
    }

    /// Deletes the temp files under `folder` (at any depth) whose writer is gone: those nobody
    /// holds a lock on. Returns their names.
    @discardableResult
    static func removeOrphans(in folder: URL) -> [String] {
        var removed: [String] = []
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: []) else { return [] }
        for case let file as URL in walker {
            let name = file.lastPathComponent
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { continue }
            let fd = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            if lock(fd, wait: false), unlink(file.path) == 0 { removed.append(file.path) }
            Glibc.close(fd)
        }
        return removed
    }
}
