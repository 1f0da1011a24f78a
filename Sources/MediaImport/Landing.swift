import CSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves finished files into the inbox. A file appears there whole or not at all: it is
/// fsynced in `downloads/` and renamed (same filesystem) without ever replacing a file that
/// is already there; a taken name becomes `name-1.ext`, `name-2.ext`, …
public enum Landing {
    /// Lands `partial` in `inbox` as `name` (or the first free `-N` variant) and returns the
    /// name used. `willTry` runs before each rename so the journal can record the candidate:
    /// if the process dies right after a rename, the next one knows where the file went.
    /// With `hints`, the importer's sidecar (`.<name>.piper.json`) is claimed first, so any
    /// importer process (not only this agent) learns the file's `--into` folder.
    public static func land(_ partial: URL, as name: String, into inbox: URL, hints: ImportHints? = nil,
                            willTry: (String) throws -> Void = { _ in }) throws -> String {
        try fsyncPath(partial.path, directory: false)
        let wanted = DownloadFileName.sanitize(name)
        for n in 0..<10_000 {
            let candidate = Self.candidate(wanted, n)
            try willTry(candidate)
            let target = inbox.appendingPathComponent(candidate).path
            var sidecar: URL?
            // Under another name than asked, the sidecar keeps the one asked for the library.
            if let sidecarData = try hints.map({ hints in
                var hints = hints
                if n > 0, hints.name == nil { hints.name = wanted }
                return try JSONEncoder().encode(hints)
            }) {
                let url = LibraryImporter.sidecar(for: candidate, in: inbox)
                // A sidecar already there belongs to another file of that name: next name.
                guard try claim(url, with: sidecarData) else { continue }
                sidecar = url
            }
            switch renameNoReplace(from: partial.path, to: target) {
            case 0:
                try? fsyncPath(inbox.path, directory: true)
                try? fsyncPath(partial.deletingLastPathComponent().path, directory: true)
                return candidate
            case EEXIST:
                if let sidecar { unlink(sidecar.path) }
                continue
            case let code:
                if let sidecar { unlink(sidecar.path) }
                throw LandingError.cannotMove(partial.lastPathComponent, candidate, code)
            }
        }
        throw LandingError.noFreeName(name)
    }

    /// Writes `data` to `file` only if no such file exists: a fsynced hidden temp file, then
    /// `link` (which never replaces). Returns false when the name is taken.
    static func claim(_ file: URL, with data: Data) throws -> Bool {
        let temp = file.deletingLastPathComponent().appendingPathComponent(".piper-sidecar-\(UUID().uuidString).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LandingError.cannotWrite(temp.path, errno) }
        defer { unlink(temp.path) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced else { throw LandingError.cannotWrite(temp.path, errno) }
        if link(temp.path, file.path) == 0 { return true }
        if errno == EEXIST { return false }
        throw LandingError.cannotWrite(file.path, errno)
    }

    /// `name` for n = 0, else `stem-n.ext`.
    public static func candidate(_ name: String, _ n: Int) -> String {
        guard n > 0 else { return name }
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        return ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
    }

    /// Copies a local file into `partial` and fsyncs it; the caller then lands it.
    public static func copy(_ source: URL, to partial: URL) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw LandingError.cannotRead(source.path, errno) }
        defer { close(input) }
        let output = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw LandingError.cannotWrite(partial.path, errno) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw LandingError.cannotRead(source.path, errno) }
            if n == 0 { break }
            var done = 0
            while done < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, n - done) }
                if w < 0 { if errno == EINTR { continue }; throw LandingError.cannotWrite(partial.path, errno) }
                done += w
            }
        }
        guard fsync(output) == 0 else { throw LandingError.cannotWrite(partial.path, errno) }
    }

    static func fsyncPath(_ path: String, directory: Bool) throws {
        let fd = open(path, (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC)
        guard fd >= 0 else { throw LandingError.cannotRead(path, errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw LandingError.cannotWrite(path, errno) }
    }

    /// Renames without replacing: `renameat2(RENAME_NOREPLACE)`, else (a file system or
    /// kernel without it) `link` + `unlink`, which fails with EEXIST just the same. Returns 0
    /// or the errno.
    static func renameNoReplace(from source: String, to target: String) -> Int32 {
        if piper_renameat2(source, target, PIPER_RENAME_NOREPLACE) == 0 { return 0 }
        let code = errno
        if code != EINVAL && code != ENOSYS && code != ENOTSUP { return code }
        if link(source, target) != 0 { return errno }
        unlink(source)
        return 0
    }
}

public enum LandingError: Error, CustomStringConvertible, Equatable {
    case cannotMove(String, String, Int32)
    case cannotRead(String, Int32)
    case cannotWrite(String, Int32)
    case noFreeName(String)

    public var description: String {
        switch self {
        case .cannotMove(let from, let to, let code): return "Cannot move \(from) into the inbox as \(to): \(String(cString: strerror(code)))"
        case .cannotRead(let path, let code): return "Cannot read \(path): \(String(cString: strerror(code)))"
        case .cannotWrite(let path, let code): return "Cannot write \(path): \(String(cString: strerror(code)))"
        case .noFreeName(let name): return "No free name in the inbox for \(name)"
        }
    }
}
