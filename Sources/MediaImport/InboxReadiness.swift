import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decides which files in `inbox/` are complete, so a file another program is still copying in
/// is never imported as its first megabytes:
/// - a file Piper landed (renamed in whole, journaled `landed`) is complete;
/// - any other file is complete once no process has it open for writing (read from
///   `/proc/<pid>/fd` and `fdinfo`; the inbox is mode 0700, so only our own processes, whose
///   descriptors we can read, could be writing it);
/// - without `/proc`, a file is complete once its size and modification time have stayed the
///   same for `settle` seconds across two looks.
///
/// Not Sendable: used by the importer inside its run lock.
final class InboxReadiness {
    var settle: TimeInterval
    /// Where open descriptors are read from; tests point it at a folder without `/proc`'s shape.
    var procRoot: String
    private var observed: [String: (size: Int64, modified: Int64, at: Date)] = [:]

    init(settle: TimeInterval = 2, procRoot: String = "/proc") {
        self.settle = settle
        self.procRoot = procRoot
    }

    /// Splits `names` into the complete ones (in order) and the ones to look at again later.
    func split(_ names: [String], in inbox: URL, landed: (String) -> Bool, now: Date = Date()) -> (ready: [String], deferred: [String]) {
        var ready: [String] = []
        var deferred: [String] = []
        var pending: [String] = []
        for name in names {
            if landed(name) { ready.append(name) } else { pending.append(name) }
        }
        guard !pending.isEmpty else {
            observed = [:]
            return (ready, deferred)
        }
        let writers = OpenFiles.openForWriting(in: inbox.path, procRoot: procRoot)
        var stillObserved: [String: (size: Int64, modified: Int64, at: Date)] = [:]
        for name in pending {
            let path = inbox.appendingPathComponent(name).path
            if let writers {
                if writers.contains(path) { deferred.append(name) } else { ready.append(name) }
                continue
            }
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let size = Int64(info.st_size)
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            if let earlier = observed[name], earlier.size == size, earlier.modified == modified, now.timeIntervalSince(earlier.at) >= settle {
                ready.append(name)
                continue
            }
            let keep = observed[name].flatMap { $0.size == size && $0.modified == modified ? $0 : nil }
            stillObserved[name] = keep ?? (size, modified, now)
            deferred.append(name)
        }
        observed = stillObserved
        return (names.filter { ready.contains($0) }, deferred)
    }
}

/// Which files in a folder some process has open for writing, read from `/proc`.
enum OpenFiles {
    /// Paths directly in `folder` open for writing (`O_WRONLY` or `O_RDWR`) by any process whose
    /// descriptors can be read; nil when `procRoot` has no process folders (no `/proc`).
    static func openForWriting(in folder: String, procRoot: String = "/proc") -> Set<String>? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: procRoot) else { return nil }
        let pids = entries.filter { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard !pids.isEmpty else { return nil }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var found = Set<String>()
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for pid in pids {
            let fdFolder = "\(procRoot)/\(pid)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: fdFolder) else { continue }
            for fd in fds {
                let n = readlink("\(fdFolder)/\(fd)", &buffer, buffer.count - 1)
                guard n > prefix.utf8.count else { continue }
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard target.hasPrefix(prefix), !target.dropFirst(prefix.count).contains("/") else { continue }
                if isWriteMode(fdinfo: "\(procRoot)/\(pid)/fdinfo/\(fd)") { found.insert(target) }
            }
        }
        return found
    }

    /// `fdinfo`'s `flags:` line is the open flags in octal; the low two bits are the access mode.
    static func isWriteMode(fdinfo path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return true }   // gone or unreadable: assume a writer
        for line in text.split(separator: "\n") where line.hasPrefix("flags:") {
            let value = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            guard let flags = Int(value, radix: 8) else { return true }
            return flags & 0o3 != 0
        }
        return true
    }
}
