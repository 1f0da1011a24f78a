import Foundation
import MediaImport
import PiperCore

/// `piper downloads [--json]`: lists the download journal; its actions on one entry are
/// subcommands (`downloads retry|cancel|rm ID`).
struct DownloadsCommand: Command {
    static let name = "downloads"
    static let abstract = "List shared media downloads and where each one stands."
    static let discussion: String? = """
        States: queued, downloading, downloaded, landed (in the inbox), imported, duplicate (the
        same content was already in the library), failed (with the reason), cancelled. A running
        download shows its percent, rate and time left; one whose agent has gone is marked
        "stalled (no agent running)". A job whose server could not be reached is postponed and
        says why and when it will be tried (this machine's time); one between two attempts is
        retrying. The reason is a sentence for people, the technical detail under it.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print the journal as a JSON array.")
    }

    static let subcommands: [any Command.Type] = [Retry.self, Cancel.self, Remove.self]

    let json: Bool

    init(_ parsed: Parsed<Options>) throws {
        json = parsed.json
    }

    /// One job as `--json` prints it: the journal's `state`, and what people are told
    /// (`status`, `reason`, `detail`, `nextAttempt` in ISO 8601 UTC), as `/api/shares` says them.
    struct Row: Encodable {
        let id: String
        let url: String
        let state: DownloadState
        let status: JobStatus.State
        let bytes: Int64
        let total: Int64?
        let file: String?
        let reason: String?
        let detail: String?
        let nextAttempt: String?
        let libraryPath: String?
        let updated: String

        init(_ entry: JournalEntry, formatter: ISO8601DateFormatter, now: Date) {
            let status = entry.status(surface: .commandLine, now: now)
            id = entry.id
            url = entry.url
            state = entry.state
            self.status = status.state
            bytes = entry.bytes
            total = entry.total
            file = entry.file
            reason = status.reason ?? entry.reason
            detail = status.detail
            nextAttempt = status.nextAttempt.map(JobStatus.iso8601)
            libraryPath = entry.libraryPath
            updated = formatter.string(from: entry.updated)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(url, forKey: .url)
            try c.encode(state, forKey: .state)
            try c.encode(status, forKey: .status)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(total, forKey: .total)
            try c.encode(file, forKey: .file)
            try c.encode(reason, forKey: .reason)
            try c.encode(detail, forKey: .detail)
            try c.encode(nextAttempt, forKey: .nextAttempt)
            try c.encode(libraryPath, forKey: .libraryPath)
            try c.encode(updated, forKey: .updated)
        }
        enum CodingKeys: String, CodingKey { case id, url, state, status, bytes, total, file, reason, detail, nextAttempt, libraryPath, updated }
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        let entries = FileManager.default.fileExists(atPath: Journal.databaseFile(in: state).path)
            ? try Journal(state: state).entries() : []
        let formatter = ISO8601DateFormatter()
        let now = Date()
        let rows = entries.map { Row($0, formatter: formatter, now: now) }
        if json {
            try Output.json(rows)
            return .success
        }
        if rows.isEmpty {
            Output.out("No downloads.")
            return .success
        }
        let agentRunning = (try? AgentLock.isHeld(state: state)) == true
        var groupsShown = Set<String>()
        for (row, entry) in zip(rows, entries) {
            if let group = entry.group, groupsShown.insert(group).inserted {
                Output.out(DownloadLine.group(entries.filter { $0.group == group }))
            }
            let shown = DownloadLine.state(entry, agentRunning: agentRunning, now: now)
            var line = "\(row.id)  \(shown.count < 11 ? shown.padding(toLength: 11, withPad: " ", startingAt: 0) : shown + " ") \(DownloadLine.progress(entry))  \(row.file ?? "-")  \(row.url)"
            if let library = DownloadLine.library(entry) { line += "\n    \(library)" }
            for reason in DownloadLine.reasons(entry, now: now) { line += "\n    \(reason)" }
            Output.out(line)
        }
        return .success
    }
}
