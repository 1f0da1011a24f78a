import CArchive
import Foundation
import Glibc
import PiperCore

/// Limits that stop zip bombs: total bytes written (nested archives included), the ratio of
/// written bytes to the archive's size (checked once past `ratioFloor`), and the entry count.
public struct ArchiveLimits: Sendable {
    package var maxTotalBytes: Int64
    package var maxRatio: Int64
    package var ratioFloor: Int64
    package var maxEntries: Int

    /// The defaults are generous for real archives (8 GiB, 100:1, 10,000 entries) and still stop a bomb.
    public init(maxTotalBytes: Int64 = 8 << 30, maxRatio: Int64 = 100, ratioFloor: Int64 = 16 << 20, maxEntries: Int = 10_000) {
        self.maxTotalBytes = maxTotalBytes
        self.maxRatio = maxRatio
        self.ratioFloor = ratioFloor
        self.maxEntries = maxEntries
    }
}

package enum ArchiveError: PiperError, Equatable {
    case unreadable(String)
    case tooLarge(limit: Int64)
    case ratioTooHigh(limit: Int64)
    case tooManyEntries(limit: Int)

    package var description: String {
        switch self {
        case .unreadable(let why): return "archive cannot be read: \(why)"
        case .tooLarge(let limit): return "archive unpacks to more than \(limit / (1 << 20)) MiB (possible zip bomb); refused"
        case .ratioTooHigh(let limit): return "archive expands more than \(limit)x its size (possible zip bomb); refused"
        case .tooManyEntries(let limit): return "archive holds more than \(limit) entries; refused"
        }
    }
    package var category: ErrorCategory { .badData }
}

/// One libarchive read handle. The class owns it: `init` opens the file, `deinit` frees it.
/// Not Sendable: used by one extraction on one thread.
final class ArchiveReader {
    private let handle: OpaquePointer

    // libarchive's AE_IF* macros are casts, which Swift does not import.
    static let regularFile: UInt32 = 0o100000
    static let directory: UInt32 = 0o040000

    struct Entry {
        let name: String
        let type: UInt32
        let isHardLink: Bool
    }

    init(path: String) throws {
        if let failure = piper_archive_load() { throw ArchiveError.unreadable(String(cString: failure)) }
        guard let handle = archive_read_new() else { throw ArchiveError.unreadable("out of memory") }
        self.handle = handle
        archive_read_support_format_zip(handle)
        guard archive_read_open_filename(handle, path, 64 * 1024) == ARCHIVE_OK else {
            throw ArchiveError.unreadable(errorMessage)
        }
    }

    deinit { archive_read_free(handle) }

    var errorMessage: String { archive_error_string(handle).map { String(cString: $0) } ?? "unknown error" }

    /// The next entry's header, or nil at the end.
    func next() throws -> Entry? {
        var entry: OpaquePointer?
        let rc = archive_read_next_header(handle, &entry)
        if rc == ARCHIVE_EOF { return nil }
        guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, let entry else { throw ArchiveError.unreadable(errorMessage) }
        let name = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
            ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        return Entry(name: name, type: UInt32(archive_entry_filetype(entry)), isHardLink: archive_entry_hardlink(entry) != nil)
    }

    /// Streams the current entry's data to `fd`, calling `account` with each block's size
    /// before writing it (it throws to stop a bomb).
    func copyData(to fd: Int32, account: (Int64) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { archive_read_data(handle, $0.baseAddress, $0.count) }
            if n == 0 { return }
            guard n > 0 else { throw ArchiveError.unreadable(errorMessage) }
            try account(Int64(n))
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + written, n - written) }
                guard w > 0 else { throw ArchiveError.unreadable("cannot write the unpacked file") }
                written += w
            }
        }
    }

    func skipData() { archive_read_data_skip(handle) }
}
