import Foundation
import Glibc

/// Unpacks a zip safely into a folder that Piper owns: only regular files and folders are
/// written, each below the folder; nested zips are unpacked one level deep into a folder named
/// after them; sizes are counted as bytes arrive, not trusted from headers.
package enum ArchiveExtractor {
    package struct Result: Sendable {
        /// Unpacked files, relative to the destination, `/`-separated.
        package var files: [String] = []
        /// Entries that were not written, with the reason.
        package var refused: [(path: String, reason: String)] = []
    }

    /// Shared between an archive and its nested archives: the byte budget is global.
    private final class Budget {
        let limits: ArchiveLimits
        let archiveSize: Int64
        var written: Int64 = 0
        var entries = 0
        init(limits: ArchiveLimits, archiveSize: Int64) { self.limits = limits; self.archiveSize = archiveSize }

        func account(_ n: Int64) throws {
            written += n
            if written > limits.maxTotalBytes { throw ArchiveError.tooLarge(limit: limits.maxTotalBytes) }
            if written > limits.ratioFloor, written > limits.maxRatio * max(archiveSize, 1) {
                throw ArchiveError.ratioTooHigh(limit: limits.maxRatio)
            }
        }
    }

    /// Unpacks `archive` into `destination` (created; should be empty). Throws for an unreadable
    /// archive or a broken limit; the caller then removes `destination`.
    package static func extract(_ archive: URL, into destination: URL, limits: ArchiveLimits = ArchiveLimits()) throws -> Result {
        let size = (try? FileManager.default.attributesOfItem(atPath: archive.path))?[.size] as? Int64 ?? 0
        let budget = Budget(limits: limits, archiveSize: size)
        var result = Result()
        try extract(archive, into: destination, prefix: [], depth: 0, budget: budget, result: &result)
        return result
    }

    private static func extract(_ archive: URL, into root: URL, prefix: [String], depth: Int, budget: Budget, result: inout Result) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let reader = try ArchiveReader(path: archive.path)
        var nested: [[String]] = []
        while let entry = try reader.next() {
            budget.entries += 1
            if budget.entries > budget.limits.maxEntries { throw ArchiveError.tooManyEntries(limit: budget.limits.maxEntries) }
            let shown = (prefix + [entry.name]).joined(separator: "/")
            let parts: [String]
            switch ArchivePath.safeComponents(entry.name) {
            case .failure(let reason):
                result.refused.append((shown, reason.description)); reader.skipData(); continue
            case .success(let p): parts = p
            }
            if ArchivePath.isClutter(parts) { reader.skipData(); continue }
            if entry.isHardLink { result.refused.append((shown, "hard link in archive refused")); reader.skipData(); continue }
            if entry.type == ArchiveReader.directory {
                try makeDirectories(root, parts)
                continue
            }
            guard entry.type == ArchiveReader.regularFile else {
                let kind = entry.type == 0o120000 ? "symbolic link" : "special file (device, FIFO or socket)"
                result.refused.append((shown, "\(kind) in archive refused")); reader.skipData(); continue
            }
            try makeDirectories(root, Array(parts.dropLast()))
            let target = root.appendingPathComponent(parts.joined(separator: "/"))
            let fd = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { result.refused.append((shown, "duplicate or unwritable entry refused")); reader.skipData(); continue }
            do {
                defer { close(fd) }
                try reader.copyData(to: fd, account: budget.account)
            }
            let relative = (prefix + parts).joined(separator: "/")
            if parts.last?.lowercased().hasSuffix(".zip") == true || isZip(target) {
                nested.append(parts)
            } else {
                result.files.append(relative)
            }
        }
        for parts in nested {
            let file = root.appendingPathComponent(parts.joined(separator: "/"))
            let shown = (prefix + parts).joined(separator: "/")
            guard isZip(file) else {
                result.files.append(shown)   // named .zip but not a zip: the sniffer judges it
                continue
            }
            defer { try? FileManager.default.removeItem(at: file) }
            guard depth == 0 else {
                result.refused.append((shown, "archive nested more than one level deep refused"))
                continue
            }
            var folderParts = parts
            folderParts[folderParts.count - 1] = uniqueFolderName(in: file.deletingLastPathComponent(), for: file)
            let folder = root.appendingPathComponent(folderParts.joined(separator: "/"))
            try extract(file, into: folder, prefix: prefix + folderParts, depth: depth + 1, budget: budget, result: &result)
        }
    }

    private static func isZip(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map { [UInt8]($0) } == [0x50, 0x4B, 0x03, 0x04]
    }

    private static func uniqueFolderName(in dir: URL, for file: URL) -> String {
        let base = file.deletingPathExtension().lastPathComponent
        var name = base
        var n = 0
        while FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path) {
            n += 1
            name = "\(base)-\(n)"
        }
        return name
    }

    /// Creates each folder below `root` with mkdir (never following a link: we never create any).
    private static func makeDirectories(_ root: URL, _ parts: [String]) throws {
        var current = root
        for part in parts {
            current.appendPathComponent(part)
            if mkdir(current.path, 0o700) != 0, errno != EEXIST {
                throw ArchiveError.unreadable("cannot create folder for an entry")
            }
            var info = stat()
            guard lstat(current.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ArchiveError.unreadable("an entry's folder clashes with a file")
            }
        }
    }
}
