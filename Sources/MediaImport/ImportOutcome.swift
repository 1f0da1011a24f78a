/// What happened to one file of the inbox (or one entry of an archive).
public struct ImportOutcome: Sendable, Codable, Equatable {
    package enum Result: Sendable, Codable, Hashable {
        /// Now in the library at this path (relative to `library/`; a folder for an archive).
        case imported(path: String)
        /// The same content is already in the library at this path; the new copy was removed.
        case duplicate(of: String)
        /// Not media (or unsafe); moved to `rejected/` (archive entries are dropped) and recorded
        /// in the catalog's rejections.
        case rejected(reason: String)
        /// Something went wrong on our side (I/O, database); the file stays in the inbox and the
        /// next run tries again.
        case failed(reason: String)
    }

    /// The inbox file name, or the path inside its archive for an entry.
    package var fileName: String
    package var result: Result
    /// Hex SHA-256 of the content (nil when it was never read, e.g. an unsafe archive entry).
    package var sha256: String?
    /// For an archive: one outcome per entry.
    package var entries: [ImportOutcome]

    package init(fileName: String, result: Result, sha256: String?, entries: [ImportOutcome] = []) {
        self.fileName = fileName
        self.result = result
        self.sha256 = sha256
        self.entries = entries
    }

    /// For an archive that refused some entries: "Refused 2 entries: ../x.mp3 (path escapes the
    /// archive); …". Nil when none were refused.
    package var refusedEntriesNote: String? {
        let refused = entries.compactMap { entry -> String? in
            if case .rejected(let reason) = entry.result { return "\(entry.fileName) (\(reason))" }
            return nil
        }
        guard !refused.isEmpty else { return nil }
        return "Refused \(refused.count) entr\(refused.count == 1 ? "y" : "ies"): " + refused.joined(separator: "; ")
    }

    /// One line for logs: `imported sample.mp3 → Podcasts/sample.mp3`.
    package var summary: String {
        switch result {
        case .imported(let path): return "imported \(fileName) → \(path)"
        case .duplicate(let path): return "duplicate \(fileName): already in the library as \(path)"
        case .rejected(let reason): return "rejected \(fileName): \(reason)"
        case .failed(let reason): return "not imported yet \(fileName): \(reason)"
        }
    }
}

/// Where an inbox file goes and where it came from. The download side passes these through
/// the `hints` lookup of `importPending`, or writes a sidecar `inbox/.<name>.piper.json`
/// (before it renames the file into the inbox).
public struct ImportHints: Sendable, Codable, Equatable {
    /// Folder below `library/` (`piper share --into FOLDER`); nil for the library root.
    package var folder: String?
    package var sourceURL: String?
    /// The shared page's title and author, for a file whose tags have none.
    package var title: String?
    package var author: String?
    /// An item of a playlist or feed folder: the folder keeps its own file (a hard link, else a
    /// copy) even when the content is in the library already elsewhere, so the folder is whole.
    package var wholeFolder: Bool?
    /// The name the file was to land as, when the inbox held another file of that name and it
    /// landed as `name-1.ext`: the library takes this one (made unique against the library
    /// only), so two downloads that land at once do not name each other's folders' files.
    package var name: String?

    package init(folder: String? = nil, sourceURL: String? = nil, title: String? = nil, author: String? = nil,
                 wholeFolder: Bool? = nil, name: String? = nil) {
        self.folder = folder
        self.sourceURL = sourceURL
        self.title = title
        self.author = author
        self.wholeFolder = wholeFolder
        self.name = name
    }
}
