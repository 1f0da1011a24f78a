import Foundation
import Glibc
import PiperCore

/// The modes of what the importer creates in the library: files and folders readable as the
/// process umask (or `libraryMode`) says, so a media server running as another user can read
/// them; never the 0600/0700 of the state folder's secrets.
public enum LibraryFiles {
    /// The process umask, read without changing it (`/proc/self/status`; other threads may be
    /// creating files, so the `umask(0)`-and-restore dance is only the fallback).
    public static let processUmask: mode_t = {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) {
            return value
        }
        let old = umask(0o022)
        umask(old)
        return old
    }()

    static func fileMode(_ modes: LibraryModes) -> mode_t {
        switch modes {
        case .umask: return 0o666 & ~processUmask
        case .fixed(let file): return mode_t(file)
        }
    }

    static func folderMode(_ modes: LibraryModes) -> mode_t {
        switch modes {
        case .umask: return 0o777 & ~processUmask
        case .fixed(let file): return mode_t(LibraryModes.folderMode(forFile: file))
        }
    }

    /// Creates `folder` and any missing parents with the library's folder mode (exactly: the
    /// mode is set after `mkdir`, so `libraryMode` holds whatever the umask).
    static func makeFolders(_ folder: URL, modes: LibraryModes) throws {
        var missing: [URL] = []
        var current = folder.standardizedFileURL
        while !LibraryLayout.exists(current), current.path != "/" {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        let mode = folderMode(modes)
        for dir in missing.reversed() {
            guard mkdir(dir.path, mode) == 0 || errno == EEXIST else {
                throw ImportError.io("cannot create the library folder \(dir.path): \(String(cString: strerror(errno)))")
            }
            chmod(dir.path, mode)
        }
        guard LibraryImporter.isDirectory(folder) else { throw ImportError.io("the library path \(folder.path) is not a folder") }
    }

    /// Gives a file about to enter the library the library's file mode.
    static func setFileMode(_ file: URL, modes: LibraryModes) throws {
        guard chmod(file.path, fileMode(modes)) == 0 else {
            throw ImportError.io("cannot set the mode of \(file.lastPathComponent): \(String(cString: strerror(errno)))")
        }
    }
}
