import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A page's bytes read straight into the array the parser takes: one copy of the input in
/// memory, not a `Data` and then an array of it (on a 5 MB page that was 5 MB of the peak).
enum InputBytes {
    /// The whole file at `path`, or nil when it cannot be opened or read.
    static func file(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return all(fd)
    }

    /// Standard input to its end, or nil on a read error.
    static func standardInput() -> [UInt8]? { all(STDIN_FILENO) }

    /// Reads `fd` to its end into the array's free room: a regular file fills an array of its
    /// size (one more byte to see the end), anything else (a pipe) doubles it as it fills.
    static func all(_ fd: Int32) -> [UInt8]? {
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) + 1 : 64 * 1024)
        while true {
            if bytes.capacity == bytes.count { bytes.reserveCapacity(bytes.capacity * 2) }
            let start = bytes.count, room = bytes.capacity - bytes.count
            bytes.append(contentsOf: repeatElement(0, count: room))
            var got = 0
            bytes.withUnsafeMutableBytes { buffer in
                repeat { got = read(fd, buffer.baseAddress! + start, room) } while got < 0 && errno == EINTR
            }
            bytes.removeLast(room - max(got, 0))
            if got < 0 { return nil }
            if got == 0 { return bytes }
        }
    }
}
