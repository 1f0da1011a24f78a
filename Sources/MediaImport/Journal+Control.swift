import Foundation
import PiperSQLite

/// `piper downloads retry|cancel|rm ID`: each one transaction that checks the entry's state
/// as it changes it, so it never races the agent.
extension Journal {
    /// Why the journal refused an action: the CLI prints it and exits 65, as for bad input.
    public enum ControlError: Error, CustomStringConvertible, Equatable {
        case unknown(String)
        case notAllowed(id: String, action: String, state: DownloadState, hint: String)
        case alreadyActive(id: String, other: String)

        /// The sentence `piper downloads` prints, naming the job and what to do instead.
        public var description: String {
            switch self {
            case .unknown(let id): return "No download with id \(id) (see 'piper downloads')"
            case .notAllowed(let id, let action, let state, let hint): return "Cannot \(action) \(id): it is \(state.rawValue); \(hint)"
            case .alreadyActive(let id, let other): return "Cannot retry \(id): the same link is already queued as \(other)"
            }
        }
    }

    /// A failed or cancelled job (or one waiting to be tried later) goes back to the queue, due now.
    @discardableResult
    public func retry(_ id: String) throws -> JournalEntry {
        try db.write { db in
            guard let entry = try entry(id: id) else { throw ControlError.unknown(id) }
            switch entry.state {
            case .failed, .cancelled:
                // A playlist's job is in the way only of one for its own folder (as in `add`).
                if let other = try entry.group == nil ? activeEntry(source: entry.source)
                    : activeEntry(source: entry.source, folder: entry.folder) {
                    throw ControlError.alreadyActive(id: id, other: other.id)
                }
            case .queued where entry.notBefore != nil:
                break
            default:
                throw ControlError.notAllowed(id: id, action: "retry", state: entry.state,
                                              hint: "only failed, cancelled or postponed downloads are retried")
            }
            // A job that failed after landing (a full disk at import) still has its file in the
            // inbox: it is imported again, not fetched again.
            if entry.state == .failed, let file = entry.file, !file.isEmpty,
               FileManager.default.fileExists(atPath: state.inbox.appendingPathComponent(file).path) {
                try db.run("UPDATE downloads SET state = 'landed', reason = NULL, updated = ? WHERE id = ?",
                           [.double(Date().timeIntervalSince1970), .text(id)])
                return try self.entry(id: id) ?? entry
            }
            guard entry.kind == .url else {
                throw ControlError.notAllowed(id: id, action: "retry", state: entry.state, hint: "share the file again instead")
            }
            try db.run("UPDATE downloads SET state = 'queued', not_before = NULL, later_tries = 0, reason = NULL, updated = ? WHERE id = ?",
                       [.double(Date().timeIntervalSince1970), .text(id)])
            return try self.entry(id: id) ?? entry
        }
    }

    /// Stops a job that has not reached the inbox: queued or downloaded at once; a running
    /// download when its worker next reports progress (it checks `isCancelled`).
    @discardableResult
    public func cancel(_ id: String) throws -> JournalEntry {
        try db.write { _ in
            guard let entry = try entry(id: id) else { throw ControlError.unknown(id) }
            guard DownloadState.active.contains(entry.state) else {
                throw ControlError.notAllowed(id: id, action: "cancel", state: entry.state,
                                              hint: entry.state == .landed ? "it is already in the inbox" : "it has already ended")
            }
            try setState(id, .cancelled, reason: "Cancelled")
            return try self.entry(id: id) ?? entry
        }
    }

    /// Forgets an entry that is not running (its partial file, if any, goes too). The library
    /// keeps what was imported: `piper library rm` removes that.
    public func remove(_ id: String, downloads: URL) throws {
        try db.write { db in
            guard let entry = try entry(id: id) else { throw ControlError.unknown(id) }
            if entry.state == .downloading || entry.state == .landed {
                throw ControlError.notAllowed(id: id, action: "remove", state: entry.state,
                                              hint: entry.state == .landed ? "the agent is importing it" : "cancel it first")
            }
            try db.run("DELETE FROM downloads WHERE id = ?", [.text(id)])
            unlink(entry.partialFile(in: downloads).path)
        }
    }

    /// True once `cancel` was called for a running download.
    package func isCancelled(_ id: String) throws -> Bool {
        try entry(id: id)?.state == .cancelled
    }
}
