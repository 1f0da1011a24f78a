import Foundation
import MediaImport
import PiperCore

/// `piper follows [--json]`, and `piper follows refresh [NAME]`.
struct FollowsCommand: Command {
    static let name = "follows"
    static let abstract = "List the shows you follow, when each was checked and what it found."
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print the follows as a JSON array.")
        var opml = Opt.flag("--opml", help: "Print the follows as an OPML 2.0 subscription list, for any podcast app.")
    }
    static let subcommands: [any Command.Type] = [Refresh.self]

    let json: Bool
    let opml: Bool

    init(_ parsed: Parsed<Options>) throws {
        if parsed.json, parsed.opml { throw UsageError("--json and --opml cannot be used together") }
        json = parsed.json
        opml = parsed.opml
    }

    struct Row: Encodable {
        let id, title, url, folder: String
        let episodes: Int
        let keep: Int?
        let lastCheck: String?
        let lastResult: String?
        let nextCheck: String?
        let stopped: String?
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        let follows = FileManager.default.fileExists(atPath: Journal.databaseFile(in: state).path)
            ? try Journal(state: state).follows() : []
        if opml {
            Output.out(OPML.document(follows.filter { $0.stopped == nil }.compactMap { follow in
                URL(string: follow.url).map { OPML.Feed(title: follow.title, url: $0) }
            }), terminator: "")
            return .success
        }
        guard !follows.isEmpty else {
            Output.out(json ? "[]" : "Not following any show.")
            return .success
        }
        let journal = try Journal(state: state)
        let iso = ISO8601DateFormatter()
        let rows = try follows.map { follow in
            Row(id: follow.id, title: follow.title, url: follow.url, folder: follow.folder,
                episodes: try journal.keptEpisodes(of: follow.id).count, keep: follow.keep,
                lastCheck: follow.lastCheck.map(iso.string), lastResult: follow.lastResult,
                nextCheck: follow.stopped == nil ? iso.string(from: follow.nextCheck) : nil, stopped: follow.stopped)
        }
        if json {
            try Output.json(rows)
            return .success
        }
        for (row, follow) in zip(rows, follows) {
            Output.out("\(row.title)  \(row.episodes) episode\(row.episodes == 1 ? "" : "s") in \(row.folder)\(row.keep.map { " (keeping \($0))" } ?? "")")
            Output.out("    \(row.url)")
            let checked = follow.lastCheck.map { "checked \(Self.time($0)): \(follow.lastResult ?? "")" } ?? "not checked yet"
            Output.out("    \(checked); " + (follow.stopped ?? "next check \(Self.time(follow.nextCheck))"))
        }
        return .success
    }

    /// A time as the person's own clock shows it.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: Date()) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// `piper follows refresh [NAME]`: checks now.
    struct Refresh: Command {
        typealias Options = NoOptions
        static let name = "refresh"
        static let abstract = "Check followed feeds now (all, or the one named) and queue their new episodes."
        static let arguments: [ArgumentSpec] = [ArgumentSpec(name: "NAME", help: "A show's title, folder, feed URL or id.", optional: true)]
        let name: String?

        init(_ parsed: Parsed<NoOptions>) throws {
            name = parsed.positionals.first
        }

        func run() async throws -> ExitCode {
            let state = StateFolder.resolve()
            let journal = try Journal(state: state)
            let chosen = try name.map { name -> [Follow] in
                guard let follow = try journal.follow(named: name) else { throw FollowsCommand.NotFollowed(name: name) }
                return [follow]
            } ?? journal.follows()
            let checks = try FollowRefresher(state: state).refreshDue(only: chosen.filter { $0.stopped == nil }.map(\.id))
            var failed = false
            for check in checks {
                Output.out("\(check.follow.title): \(check.follow.lastResult ?? "")")
                failed = failed || check.follow.failures > 0
            }
            if checks.count < chosen.count { Output.note("\(chosen.count - checks.count) not checked: stopped, or being checked by another process.") }
            let fresh = checks.filter { $0.queued > 0 }.count
            let unchanged = checks.filter { $0.follow.lastResult == "Not modified" }.count
            Output.detail("Checked \(checks.count) feed\(checks.count == 1 ? "" : "s"): \(fresh) with new episodes, \(unchanged) not modified, "
                          + "\(checks.filter { $0.follow.failures > 0 }.count) failed; \(checks.reduce(0) { $0 + $1.bytes }) bytes of feeds fetched.")
            if checks.contains(where: { $0.queued > 0 }) {
                _ = try AgentLauncher.ensureWorker(state: state, environment: ProcessInfo.processInfo.environment)
            }
            return failed ? .unavailable : .success
        }
    }

    struct NotFollowed: PiperError {
        let name: String
        var description: String { "Not following \(name) (see 'piper follows')" }
        var category: ErrorCategory { .badData }
    }
}
