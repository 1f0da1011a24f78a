import Foundation
import MediaImport
import PiperCore

/// A `piper downloads` action on one journal entry: retry, cancel or rm ID.
protocol DownloadAction: Command where Options == NoOptions {
    init(id: String)
    /// The job's id, as `piper downloads` lists it.
    var id: String { get }
    /// Acts on the entry and says what it did on stderr; the journal refuses what the entry's
    /// state does not allow with a `Journal.ControlError`.
    func act(on journal: Journal, state: StateFolder) throws
}

extension DownloadAction {
    static var arguments: [ArgumentSpec] { [ArgumentSpec(name: "ID", help: "The job's id, as listed.")] }

    init(_ parsed: Parsed<NoOptions>) throws {
        self.init(id: parsed.positionals[0])
    }

    /// A refusal (the job is running, already ended, unknown) is bad input data, not a failure.
    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        let journal = try Journal(state: state)
        do {
            try act(on: journal, state: state)
        } catch let error as Journal.ControlError {
            Output.err("\(error)")
            return .dataError
        }
        return .success
    }
}

extension DownloadsCommand {
    /// `piper downloads retry ID`.
    struct Retry: DownloadAction {
        static let name = "retry"
        static let abstract = "Queue a failed, cancelled or postponed job again, now."
        let id: String

        func act(on journal: Journal, state: StateFolder) throws {
            let entry = try journal.retry(id)
            _ = try AgentLauncher.ensureWorker(state: state, environment: ProcessInfo.processInfo.environment)
            Output.err("Queued \(entry.file ?? entry.url) again")
        }
    }

    /// `piper downloads cancel ID`.
    struct Cancel: DownloadAction {
        static let name = "cancel"
        static let abstract = "Stop a job that has not reached the inbox yet."
        let id: String

        func act(on journal: Journal, state: StateFolder) throws {
            let entry = try journal.cancel(id)
            Output.err("Cancelled \(entry.file ?? entry.url)")
        }
    }

    /// `piper downloads rm ID`.
    struct Remove: DownloadAction {
        static let name = "rm"
        static let abstract = "Forget a job that is not running (the library keeps what it imported)."
        let id: String

        func act(on journal: Journal, state: StateFolder) throws {
            try journal.remove(id, downloads: state.downloads)
            Output.err("Removed \(id) from the journal")
        }
    }
}

/// How one journal entry reads in `piper downloads`.
enum DownloadLine {
    /// The state, or "stalled (no agent running)" for a download whose worker is gone, or
    /// "postponed" for a job waiting to be tried later and "retrying" for one between two
    /// attempts (`JobStatus`, as the web app and `/api/shares` say it).
    static func state(_ entry: JournalEntry, agentRunning: Bool, now: Date = Date()) -> String {
        if entry.state == .downloading, !agentRunning { return "stalled (no agent running)" }
        let status = entry.status(surface: .commandLine, now: now)
        switch status.state {
        case .postponed, .retrying: return status.state.rawValue
        case .queued, .downloading, .imported, .duplicate, .failed, .cancelled: return entry.state.rawValue
        }
    }

    /// The lines under a job that say why it failed, waits or retries, the same sentence the web
    /// app shows, with the next attempt in this machine's time zone, then the technical detail;
    /// another state's note (an archive's refused entries) as the journal has it.
    static func reasons(_ entry: JournalEntry, now: Date = Date()) -> [String] {
        let status = entry.status(surface: .commandLine, now: now)
        guard let failure = status.failure else { return entry.reason.map { [$0] } ?? [] }
        var lines: [String]
        switch status.state {
        case .postponed, .retrying:
            lines = [failure.happened + (status.nextAttempt.map { "; Piper tries again at \(ShareOutcome.localTime($0, now: now))" } ?? "")]
        case .queued, .downloading, .imported, .duplicate, .failed, .cancelled:
            lines = [failure.sentence]
        }
        if failure.detail != failure.sentence { lines.append("(\(failure.detail))") }
        return lines
    }

    /// Where an imported or duplicate job's file is in the library; nil for every other state
    /// (switched exhaustively, so a new state must say whether it has a library line).
    static func library(_ entry: JournalEntry) -> String? {
        guard let path = entry.libraryPath else { return nil }
        switch entry.state {
        case .imported: return Messages.inLibrary(path)
        case .duplicate: return Messages.alreadyInLibrary(path)
        case .queued, .downloading, .downloaded, .landed, .failed, .cancelled: return nil
        }
    }

    /// The header of a playlist's jobs: `playlist Audiobooks/Book: 3 of 5 in the library, 1 failed`;
    /// a job counts once its file is in the folder itself (a job whose content was found
    /// elsewhere in the library counts only when the folder got its own file of it), and the
    /// folder is complete only when every asked-for file is in it.
    static func group(_ entries: [JournalEntry]) -> String {
        let prefix = entries.first?.folder.map { $0 + "/" }
        let done = entries.filter { entry in
            DownloadState.inLibrary.contains(entry.state) && (prefix.map { entry.libraryPath?.hasPrefix($0) == true } ?? true)
        }.count
        let failed = entries.filter { endedWithout($0.state) }.count
        var line = "playlist \(entries.first?.folder ?? "-"): \(done) of \(entries.count) in the library"
        if failed > 0 { line += ", \(failed) failed" }
        if done == entries.count { line += " (complete)" }
        return line
    }

    /// Whether a job in this state ended without its file (failed or cancelled).
    private static func endedWithout(_ state: DownloadState) -> Bool {
        switch state {
        case .failed, .cancelled: return true
        case .queued, .downloading, .downloaded, .landed, .imported, .duplicate: return false
        }
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
