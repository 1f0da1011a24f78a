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
        "stalled (no agent running)". A job whose server could not be reached is queued again and
        says when it will be tried.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print the journal as a JSON array.")
    }

    static let subcommands: [any Command.Type] = [Retry.self, Cancel.self, Remove.self]

    let json: Bool

    init(_ parsed: Parsed<Options>) throws {
        json = parsed.json
    }

    struct Row: Encodable {
        let id: String
        let url: String
        let state: DownloadState
        let bytes: Int64
        let total: Int64?
        let file: String?
        let reason: String?
        let libraryPath: String?
        let updated: String

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(url, forKey: .url)
            try c.encode(state, forKey: .state)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(total, forKey: .total)
            try c.encode(file, forKey: .file)
            try c.encode(reason, forKey: .reason)
            try c.encode(libraryPath, forKey: .libraryPath)
            try c.encode(updated, forKey: .updated)
        }
        enum CodingKeys: String, CodingKey { case id, url, state, bytes, total, file, reason, libraryPath, updated }
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        let entries = FileManager.default.fileExists(atPath: Journal.databaseFile(in: state).path)
            ? try Journal(state: state).entries() : []
        let formatter = ISO8601DateFormatter()
        let rows = entries.map {
            Row(id: $0.id, url: $0.url, state: $0.state, bytes: $0.bytes, total: $0.total,
                file: $0.file, reason: $0.reason, libraryPath: $0.libraryPath, updated: formatter.string(from: $0.updated))
        }
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
            let shown = DownloadLine.state(entry, agentRunning: agentRunning)
            var line = "\(row.id)  \(shown.count < 11 ? shown.padding(toLength: 11, withPad: " ", startingAt: 0) : shown + " ") \(DownloadLine.progress(entry))  \(row.file ?? "-")  \(row.url)"
            if let library = DownloadLine.library(entry) { line += "\n    \(library)" }
            if let reason = row.reason { line += "\n    \(reason)" }
            Output.out(line)
        }
        return .success
    }
}
