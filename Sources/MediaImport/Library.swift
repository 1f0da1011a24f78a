import Foundation
import Glibc

/// Names and moves in `library/` (pure naming rules plus the atomic move).
enum LibraryLayout {
    /// `--into FOLDER` as safe components below the library: separators split, `.`/`..`/empty
    /// parts dropped, each part cleaned like a file name.
    static func folderComponents(_ folder: String?) -> [String] {
        guard let folder else { return [] }
        return folder.split { $0 == "/" || $0 == "\\" }.map(String.init)
            .filter { $0 != "." && $0 != ".." }
            .map(cleanName).filter { !$0.isEmpty }
    }

    /// A file or folder name safe on disk: no separators or control characters, no leading dot
    /// (which would hide it and make the inbox skip it), at most 200 UTF-8 bytes.
    static func cleanName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in name.unicodeScalars {
            if s == "/" || s == "\\" { scalars.append(Unicode.Scalar(UInt8(ascii: "-"))) } else if s.value >= 0x20, s.value != 0x7F { scalars.append(s) }
        }
        var cleaned = String(scalars).trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 200 { cleaned.removeLast() }
        return cleaned
    }

    /// The library name for an arriving file: cleaned, with an extension that matches its real
    /// format (`episode` → `episode.mp3`; a `.mp3` that is really M4A → `.m4a`).
    static func fileName(for original: String, format: MediaFormat) -> String {
        var name = cleanName(original)
        if name.isEmpty { name = "untitled" }
        let url = URL(fileURLWithPath: name)
        let ext = url.pathExtension.lowercased()
        if format.extensions.contains(ext) { return name }
        let stem = ext.isEmpty || ext.count > 5 ? name : url.deletingPathExtension().lastPathComponent
        return "\(stem.isEmpty ? "untitled" : stem).\(format.extensions[0])"
    }

    /// `name`, else `stem-1.ext`, `stem-2.ext`, … : the first that `isTaken` refuses.
    static func uniqueName(_ name: String, isDirectory: Bool = false, isTaken: (String) throws -> Bool) rethrows -> String {
        guard try isTaken(name) else { return name }
        let url = URL(fileURLWithPath: name)
        let ext = isDirectory ? "" : url.pathExtension
        let stem = ext.isEmpty ? name : url.deletingPathExtension().lastPathComponent
        var n = 1
        while true {
            let candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            if try !isTaken(candidate) { return candidate }
            n += 1
        }
    }

    /// Moves a file by atomic rename; across file systems it copies to a hidden temp name in the
    /// target folder (`TemporaryFile`: locked by its writer, so one a dead writer left is found
    /// and removed), renames that into place, then removes the source.
    static func move(_ source: URL, to target: URL, checkpoints: (any AgentCheckpoints)? = nil) throws {
        if rename(source.path, target.path) == 0 { return }
        guard errno == EXDEV else { throw ImportError.io("cannot move \(source.lastPathComponent) into place (errno \(errno))") }
        let temp = try TemporaryFile(in: target.deletingLastPathComponent())
        defer { temp.close() }
        do {
            try temp.copy(from: source, checkpoints: checkpoints)
            guard rename(temp.url.path, target.path) == 0 else { throw ImportError.io("cannot move \(source.lastPathComponent) into place") }
            try FileManager.default.removeItem(at: source)
        } catch {
            unlink(temp.url.path)
            throw error
        }
    }

    /// A second name for `source` at `target`: a hard link, else (another file system, or one
    /// without hard links) a copy through a hidden temp file renamed into place. Nothing
    /// half-written is ever at `target`.
    static func linkOrCopy(_ source: URL, to target: URL) throws {
        if link(source.path, target.path) == 0 { return }
        let code = errno
        guard code == EXDEV || code == EPERM || code == EMLINK || code == EOPNOTSUPP else {
            throw ImportError.io("cannot link \(source.lastPathComponent) into \(target.deletingLastPathComponent().lastPathComponent): \(String(cString: strerror(code)))")
        }
        let temp = try TemporaryFile(in: target.deletingLastPathComponent())
        defer { temp.close() }
        do {
            try temp.copy(from: source)
            guard rename(temp.url.path, target.path) == 0 else { throw ImportError.io("cannot copy \(source.lastPathComponent) into place") }
        } catch {
            unlink(temp.url.path)
            throw error
        }
    }

    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }
}
