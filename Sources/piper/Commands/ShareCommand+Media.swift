import Foundation
import MediaImport
import PiperCore

/// The media route's queue for `piper share`: the durable download journal, worked by
/// `piper agent` (started in the background when none runs).
func makeMediaQueue(config: Config, environment: [String: String], again: Bool = false) -> (any MediaQueue)? {
    var queue = JournalMediaQueue(state: config.state, environment: environment)
    queue.again = again
    return queue
}

/// How a media share ended, for `piper share --wait`.
enum MediaWaitOutcome: Equatable {
    /// In the library at this path (relative to it; a folder for an archive), with a note such
    /// as the entries an archive refused.
    case imported(path: String?, note: String?)
    /// The same content was already in the library there.
    case duplicate(of: String?)
    case failed(reason: String)
    /// The server could not be reached; the job is queued again for later, as the reason says.
    case later(reason: String)
    /// Nothing picked the job up in time; it stays queued for the next agent.
    case stillQueued(seconds: Int)
}

/// Follows a queued media share in the journal until the agent has imported it or given up.
/// Reports each state change through `progress`. A job that no agent starts within
/// `queuedLimit` seconds is reported, not waited on forever: it stays queued.
/// On a terminal, `display` draws the download's progress bar (the agent's, from the journal's
/// bytes) while it runs; state changes are plain lines either way.
func waitForMedia(_ receipt: MediaReceipt, config: Config, queuedLimit: TimeInterval = 60, display: ProgressDisplay? = nil,
                  progress: (String) -> Void) async throws -> MediaWaitOutcome {
    let journal = try Journal(state: config.state)
    if receipt.groupSize != nil { return try await waitForGroup(receipt, journal: journal, progress: progress) }
    var lastState: DownloadState?
    var queuedSince = Date()
    while true {
        guard let entry = try journal.entry(id: receipt.id) else {
            return .failed(reason: "the download journal has no entry \(receipt.id)")
        }
        if entry.state != lastState {
            if lastState == .downloading { display?.finish(id: entry.id, message: "  downloaded") }
            lastState = entry.state
            queuedSince = Date()
            progress("\(entry.state.rawValue)\(entry.file.map { ": \($0)" } ?? "")")
        }
        if entry.state == .downloading {
            display?.update(id: entry.id, name: entry.file ?? URL(string: entry.url)?.lastPathComponent ?? entry.url,
                            bytes: entry.bytes, total: entry.total)
        }
        switch entry.state {
        case .cancelled:
            return .failed(reason: entry.reason ?? "Cancelled")
        case .imported:
            return .imported(path: entry.libraryPath ?? entry.file, note: entry.reason)
        case .duplicate:
            return .duplicate(of: entry.libraryPath)
        case .failed:
            return .failed(reason: entry.reason ?? "no reason recorded")
        case .queued where entry.notBefore.map { $0 > Date() } == true:
            // Its server could not be reached: the agent tries again then (the local time).
            let status = entry.status(surface: .commandLine)
            let when = status.nextAttempt.map { "Will try again at \(ShareOutcome.localTime($0))" } ?? "Will try again later"
            return .later(reason: "\(when): \(status.detail ?? "waiting to try again")")
        case .queued where Date().timeIntervalSince(queuedSince) > queuedLimit:
            return .stillQueued(seconds: Int(queuedLimit))
        default:
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// Follows a playlist's jobs until every one has ended; the outcome names the folder and
/// counts what failed.
func waitForGroup(_ receipt: MediaReceipt, journal: Journal, progress: (String) -> Void) async throws -> MediaWaitOutcome {
    var reported = -1
    while true {
        let entries = try journal.entries(group: receipt.id)
        let ended = entries.filter { DownloadState.terminal.contains($0.state) }
        if ended.count != reported {
            reported = ended.count
            progress("\(ended.count) of \(entries.count) done")
        }
        if !entries.isEmpty, ended.count == entries.count {
            let failed = entries.filter { $0.state == .failed || $0.state == .cancelled }
            let folder = entries.first?.folder
            guard failed.count < entries.count else {
                return .failed(reason: failed.compactMap(\.reason).first ?? "every file of the playlist failed")
            }
            let note = failed.isEmpty ? nil : "\(failed.count) of \(entries.count) files failed: "
                + failed.map { "\($0.url) (\($0.reason ?? "no reason"))" }.joined(separator: "; ")
            return .imported(path: folder, note: note)
        }
        try await Task.sleep(for: .milliseconds(200))
    }
}
