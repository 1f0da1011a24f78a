import Foundation
import MediaImport
import PiperCore

/// `piper downloads retry|cancel|rm ID`.
enum DownloadControl: String, CaseIterable {
    case retry, cancel, rm

    static func parse(_ positionals: [String]) throws -> (action: DownloadControl, id: String)? {
        guard let first = positionals.first else { return nil }
        guard let action = DownloadControl(rawValue: first) else {
            throw UsageError("Unknown action '\(first)': use retry, cancel or rm")
        }
        guard positionals.count == 2 else { throw UsageError("\(first) takes one job ID (see 'piper downloads')") }
        return (action, positionals[1])
    }

    func run(id: String, state: StateFolder, json: Bool) throws -> ExitCode {
        let journal = try Journal(state: state)
        do {
            switch self {
            case .retry:
                let entry = try journal.retry(id)
                _ = try AgentLauncher.ensureWorker(state: state, environment: ProcessInfo.processInfo.environment)
                Output.err("Queued \(entry.file ?? entry.url) again")
            case .cancel:
                let entry = try journal.cancel(id)
                Output.err("Cancelled \(entry.file ?? entry.url)")
            case .rm:
                try journal.remove(id, downloads: state.downloads)
                Output.err("Removed \(id) from the journal")
            }
        } catch let error as Journal.ControlError {
            Output.err("\(error)")
            return .dataError
        }
        return .success
    }
}

/// How one journal entry reads in `piper downloads`.
enum DownloadLine {
    /// The state, or "stalled (no agent running)" for a download whose worker is gone, or
    /// "postponed" for a job waiting to be tried later.
    static func state(_ entry: JournalEntry, agentRunning: Bool) -> String {
        if entry.state == .downloading, !agentRunning { return "stalled (no agent running)" }
        if entry.state == .queued, let due = entry.notBefore, due > Date() { return "postponed" }
        return entry.state.rawValue
    }

    /// The header of a playlist's jobs: `playlist Audiobooks/Book: 3 of 5 in the library, 1 failed`;
    /// the folder is complete only when every file is in.
    static func group(_ entries: [JournalEntry]) -> String {
        let done = entries.filter { DownloadState.inLibrary.contains($0.state) }.count
        let failed = entries.filter { $0.state == .failed || $0.state == .cancelled }.count
        var line = "playlist \(entries.first?.folder ?? "-"): \(done) of \(entries.count) in the library"
        if failed > 0 { line += ", \(failed) failed" }
        if done == entries.count { line += " (complete)" }
        return line
    }

    /// `42% 11.2/26.7 MB 3.1 MB/s ETA 0:05`, or the bytes alone when the size is unknown.
    static func progress(_ entry: JournalEntry) -> String {
        guard let total = entry.total, total > 0 else { return "\(ProgressLine.megabytes(entry.bytes)) MB" }
        var text = "\(min(Int(Double(entry.bytes) / Double(total) * 100), 100))% \(ProgressLine.megabytes(entry.bytes))/\(ProgressLine.megabytes(total)) MB"
        if entry.state == .downloading, let rate = entry.rate, rate > 0 {
            text += " \(ProgressLine.megabytes(Int64(rate))) MB/s"
            if entry.bytes < total { text += " ETA \(ProgressLine.clock(Double(total - entry.bytes) / rate))" }
        }
        return text
    }
}
