import Foundation
import PiperCore
import Glibc

extension LibraryImporter {
    /// One inbox file, start to finish. Never throws: our own failures become `.failed` and leave
    /// the file in the inbox for the next run.
    func importOne(name: String, hints: ImportHints) -> ImportOutcome {
        let file = state.inbox.appendingPathComponent(name)
        do {
            var info = stat()
            guard lstat(file.path, &info) == 0 else { return ImportOutcome(fileName: name, result: .failed(reason: "vanished"), sha256: nil) }
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return ImportOutcome(fileName: name, result: .failed(reason: "folders in the inbox are not imported; drop files or a zip"), sha256: nil)
            default: return try reject(file, name: name, reason: "not a regular file (link, device or pipe)", sha256: nil, hints: hints)
            }
            let format: MediaFormat
            switch Sniffer.sniff(try Self.head(of: file)) {
            case .rejected(let reason):
                return try reject(file, name: name, reason: reason, sha256: try SHA256.hex(ofFile: file), hints: hints)
            case .media(let f): format = f
            }
            let sha = try SHA256.hex(ofFile: file)
            let folder = LibraryLayout.folderComponents(hints.folder)
            let libraryName = hints.name.map { LibraryLayout.cleanName($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? name
            if format.isArchive {
                return try importArchive(file, name: libraryName, sha256: sha, folder: folder, hints: hints)
            }
            let result = try place(file, originalName: libraryName, format: format, sha256: sha, folder: folder, sourceURL: hints.sourceURL,
                                   fallbackTitle: hints.title, fallbackAuthor: hints.author, wholeFolder: hints.wholeFolder == true)
            return ImportOutcome(fileName: name, result: result, sha256: sha)
        } catch {
            return ImportOutcome(fileName: name, result: .failed(reason: "\(error)"), sha256: nil)
        }
    }

    /// Places one media file in `library/<folder>/`: dedup by content, unique name, then the
    /// three steps (catalog row `placing` → atomic rename → `placed`).
    func place(_ source: URL, originalName: String, format: MediaFormat, sha256: String, folder: [String], sourceURL: String?,
               archiveSHA256: String? = nil, fallbackTitle: String? = nil, fallbackAuthor: String? = nil,
               wholeFolder: Bool = false) throws -> ImportOutcome.Result {
        let fileName = LibraryLayout.fileName(for: URL(fileURLWithPath: originalName).lastPathComponent, format: format)
        if let existing = try catalog.item(sha256: sha256) {
            if LibraryLayout.exists(state.library.appendingPathComponent(existing.path)) {
                let kept = wholeFolder && !folder.isEmpty ? try keepInFolder(existing, folder: folder, name: fileName) : existing.path
                try FileManager.default.removeItem(at: source)
                return .duplicate(of: kept)
            }
            try catalog.forget(path: existing.path)   // removed from library/ by hand: import it again
        }
        let tags = try readTags(source, libraryName: fileName, format: format, fallbackTitle: fallbackTitle, fallbackAuthor: fallbackAuthor)
        let directory = folder.reduce(state.library) { $0.appendingPathComponent($1, isDirectory: true) }
        try LibraryFiles.makeFolders(directory, modes: state.libraryModes)
        let prefix = folder.isEmpty ? "" : folder.joined(separator: "/") + "/"
        let unique = try LibraryLayout.uniqueName(fileName) { candidate in
            try LibraryLayout.exists(directory.appendingPathComponent(candidate)) || catalog.isPathTaken(prefix + candidate)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)?.int64Value ?? 0
        let item = LibraryItem(path: prefix + unique, title: tags.title, author: tags.author, album: tags.album,
                               duration: tags.duration, chapters: tags.chapters, format: format.rawValue, size: size,
                               sha256: sha256, sourceURL: sourceURL, originalName: originalName, addedAt: CatalogClock.now())
        try LibraryFiles.setFileMode(source, modes: state.libraryModes)
        let id = try catalog.beginPlacing(item, archiveSHA256: archiveSHA256)
        do {
            try LibraryLayout.move(source, to: directory.appendingPathComponent(unique), checkpoints: checkpoints)
        } catch {
            try? catalog.forget(id)
            throw error
        }
        try catalog.markPlaced(id)
        return .imported(path: item.path)
    }

    /// `keepInFolder` for the item (or member) at `libraryPath`, under the import lock; nil when
    /// nothing in the library is there any more (the caller downloads it again).
    public func keepInFolder(libraryPath: String, folder: String, name: String) throws -> String? {
        try catalog.withImportLock(state: state) {
            guard let item = try catalog.items().first(where: { $0.path == libraryPath }),
                  LibraryLayout.exists(state.library.appendingPathComponent(item.path)) else { return nil }
            return try keepInFolder(item, folder: LibraryLayout.folderComponents(folder), name: name)
        }
    }

    /// The path in `folder` of the item's content: the item's own, or a member's, when one lies
    /// there already; else a new member, `name` (made unique) in `folder`, hard-linked to the
    /// item's file (a copy where the file system has no hard links), recorded in the catalog.
    func keepInFolder(_ item: LibraryItem, folder: [String], name: String) throws -> String {
        let prefix = folder.joined(separator: "/") + "/"
        let inFolder = { (path: String) in path.hasPrefix(prefix) && !path.dropFirst(prefix.count).contains("/") }
        if inFolder(item.path) { return item.path }
        if let member = try catalog.members(sha256: item.sha256).first(where: {
            inFolder($0) && LibraryLayout.exists(state.library.appendingPathComponent($0))
        }) {
            return member
        }
        let directory = folder.reduce(state.library) { $0.appendingPathComponent($1, isDirectory: true) }
        try LibraryFiles.makeFolders(directory, modes: state.libraryModes)
        let unique = try LibraryLayout.uniqueName(name) { candidate in
            try LibraryLayout.exists(directory.appendingPathComponent(candidate)) || catalog.isPathTaken(prefix + candidate)
        }
        try LibraryLayout.linkOrCopy(state.library.appendingPathComponent(item.path), to: directory.appendingPathComponent(unique))
        try catalog.addMember(path: prefix + unique, sha256: item.sha256)
        return prefix + unique
    }

    /// Reads tags; when the name's extension does not match the real format (TagLib picks some
    /// readers by extension), reads through a hard link with the right name in the temp folder.
    /// The fallback title is the library name without its extension.
    func readTags(_ file: URL, libraryName: String, format: MediaFormat, fallbackTitle: String? = nil,
                  fallbackAuthor: String? = nil) throws -> MediaTags {
        var tags: MediaTags
        if file.lastPathComponent == libraryName {
            tags = TagReader.read(file, format: format, fallbackTitle: fallbackTitle, fallbackAuthor: fallbackAuthor)
        } else {
            let scratch = state.importTemp.appendingPathComponent("tags-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let link = scratch.appendingPathComponent(libraryName)
            if Glibc.link(file.path, link.path) != 0 { try FileManager.default.copyItem(at: file, to: link) }
            tags = TagReader.read(link, format: format, fallbackTitle: fallbackTitle, fallbackAuthor: fallbackAuthor)
        }
        return tags
    }

    /// Moves a refused file to `rejected/` (unique name) and records why. The row is written
    /// first: a crash before the move only means the file is judged again next run.
    func reject(_ file: URL, name: String, reason: String, sha256: String?, hints: ImportHints) throws -> ImportOutcome {
        let cleaned = LibraryLayout.cleanName(name)
        let target = LibraryLayout.uniqueName(cleaned.isEmpty ? "unnamed" : cleaned) {
            LibraryLayout.exists(state.rejectedFolder.appendingPathComponent($0))
        }
        try catalog.record(Rejection(fileName: name, reason: reason, sha256: sha256, sourceURL: hints.sourceURL,
                                     movedTo: "rejected/\(target)", rejectedAt: CatalogClock.now()))
        try LibraryLayout.move(file, to: state.rejectedFolder.appendingPathComponent(target))
        return ImportOutcome(fileName: name, result: .rejected(reason: reason), sha256: sha256)
    }

    static func head(of file: URL) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        return [UInt8](try handle.read(upToCount: Sniffer.headLength) ?? Data())
    }
}
