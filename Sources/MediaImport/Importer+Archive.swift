import Foundation
import PiperCore

extension LibraryImporter {
    /// A zip: unpacked into the temp folder, then each media entry is placed in
    /// `library/<folder>/<zip name>/…` (a single top-level folder inside the zip is folded
    /// away). The folder is whole: an entry whose content is in the library already elsewhere
    /// gets the folder's own file of it (`keepInFolder`: a hard link, else a copy), so a book
    /// whose first part was shared alone before still holds every part. Unsafe and non-media
    /// entries are dropped and recorded; a broken limit rejects the whole archive.
    func importArchive(_ file: URL, name: String, sha256: String, folder: [String], hints: ImportHints) throws -> ImportOutcome {
        let scratch = state.importTemp.appendingPathComponent("unzip-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let extracted: ArchiveExtractor.Result
        do {
            extracted = try ArchiveExtractor.extract(file, into: scratch, limits: limits)
        } catch let error as ArchiveError {
            try? FileManager.default.removeItem(at: scratch)
            return try reject(file, name: name, reason: error.description, sha256: sha256, hints: hints)
        }
        var entries: [ImportOutcome] = []
        for refused in extracted.refused {
            try catalog.record(Rejection(fileName: "\(name): \(refused.path)", reason: refused.reason, sha256: nil,
                                         sourceURL: hints.sourceURL, movedTo: nil, rejectedAt: CatalogClock.now()))
            entries.append(ImportOutcome(fileName: refused.path, result: .rejected(reason: refused.reason), sha256: nil))
        }

        let stem = LibraryLayout.cleanName(URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent)
        let parent = folder.reduce(state.library) { $0.appendingPathComponent($1, isDirectory: true) }
        let prefix = folder.isEmpty ? "" : folder.joined(separator: "/") + "/"
        let zipFolder = try LibraryLayout.uniqueName(stem.isEmpty ? "archive" : stem, isDirectory: true) {
            try LibraryLayout.exists(parent.appendingPathComponent($0)) && !catalog.folderHoldsArchive(prefix + $0, archiveSHA256: sha256)
        }
        let strip = Self.commonTopFolder(extracted.files)
        for relative in extracted.files.sorted() {
            let source = scratch.appendingPathComponent(relative)
            var parts = relative.split(separator: "/").map(String.init)
            if strip != nil { parts.removeFirst() }
            let entryName = parts.removeLast()
            entries.append(try importEntry(source, relative: relative, entryName: entryName,
                                           folder: folder + [zipFolder] + parts.map(LibraryLayout.cleanName).filter { !$0.isEmpty },
                                           archive: name, archiveSHA256: sha256, hints: hints))
        }
        let folderPath = (folder + [zipFolder]).joined(separator: "/")
        if entries.contains(where: { if case .imported = $0.result { return true } else { return false } }) {
            try FileManager.default.removeItem(at: file)
            return ImportOutcome(fileName: name, result: .imported(path: folderPath), sha256: sha256, entries: entries)
        }
        // Every entry was in the library already: each is in the zip's folder now all the same
        // (its own file there, or the same zip's earlier import), so that folder is the answer.
        if entries.contains(where: { if case .duplicate = $0.result { return true } else { return false } }) {
            try FileManager.default.removeItem(at: file)
            return ImportOutcome(fileName: name, result: .duplicate(of: folderPath), sha256: sha256, entries: entries)
        }
        var outcome = try reject(file, name: name, reason: "archive holds no media files", sha256: sha256, hints: hints)
        outcome.entries = entries
        return outcome
    }

    /// One unpacked entry: placed if it is media, else dropped and recorded.
    private func importEntry(_ source: URL, relative: String, entryName: String, folder: [String], archive: String,
                             archiveSHA256: String, hints: ImportHints) throws -> ImportOutcome {
        let sha = try SHA256.hex(ofFile: source)
        let reason: String
        switch Sniffer.sniff(try Self.head(of: source)) {
        case .media(.zip): reason = "archive nested more than one level deep refused"
        case .rejected(let why): reason = why
        case .media(let format):
            let result = try place(source, originalName: entryName, format: format, sha256: sha, folder: folder,
                                   sourceURL: hints.sourceURL, archiveSHA256: archiveSHA256, wholeFolder: true)
            return ImportOutcome(fileName: relative, result: result, sha256: sha)
        }
        try catalog.record(Rejection(fileName: "\(archive): \(relative)", reason: reason, sha256: sha,
                                     sourceURL: hints.sourceURL, movedTo: nil, rejectedAt: CatalogClock.now()))
        return ImportOutcome(fileName: relative, result: .rejected(reason: reason), sha256: sha)
    }

    /// The one folder every file sits in, if there is one (`Book/01.mp3`, `Book/02.mp3` → `Book`).
    static func commonTopFolder(_ files: [String]) -> String? {
        let tops = files.map { $0.split(separator: "/", maxSplits: 1) }
        guard let first = tops.first?.first, tops.allSatisfy({ $0.count == 2 && $0[0] == first }) else { return nil }
        return String(first)
    }
}
