import Foundation
import MediaImport
import PiperCore

/// `piper agent [--once]`: works the download journal.
struct AgentCommand: Command {
    static let name = "agent"
    static let abstract = "Download queued media, land it in the inbox and import it."
    static let discussion: String? = """
        Holds the agent lock (agent.lock in the state folder) while it runs, so only one agent
        works the queue. Downloads interrupted by a crash are resumed. Without --once it keeps
        running and picks up new shares; with --once it exits when the queue is empty (this is
        what `piper share` starts in the background when no agent runs).
        """
    struct Options: OptionGroup {
        var once = Opt.flag("--once", help: "Drain the queue, then exit.")
        var library = LibraryOption.option()
    }

    let once: Bool
    let environment: [String: String]

    init(_ parsed: Parsed<Options>) throws {
        environment = try LibraryOption.environment(parsed.library)
        once = parsed.once
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve(environment: environment)
        let progress = ProgressDisplay()
        let importer: (any InboxImporting)?
        do {
            importer = try AgentImporterFactory.make(state: state)
        } catch {
            // Downloads still land in the inbox; the next agent imports them.
            Output.err("Warning: the library is unavailable, files will wait in the inbox: \(error)")
            importer = nil
        }
        // No terminal watches a share's background agent or the service: tell the desktop instead.
        let notifier = progress.enabled ? nil : DesktopNotifier(environment: environment)
        let tunables = TunableValues.resolve(environment: environment)
        for notice in tunables.notices { Output.err(notice) }
        let agent = Agent(state: state, settings: AgentSettings.from(tunables),
                          importer: importer, progress: progress, notifier: notifier, log: AgentLog.writer(quiet: progress.enabled || Output.verbosity.quiet))
        switch try agent.run(once: once) {
        case .alreadyRunning:
            Output.err("Another agent is already running; it will finish the queue.")
        case .finished(let summary):
            Output.note("Agent done: \(summary.landed) landed, \(summary.failed) failed, \(summary.imported) imported, "
                       + "\(summary.duplicates) already in the library.")
        }
        return .success
    }
}

/// Timestamped agent log lines on stderr (which is `downloads/agent.log` for a started agent).
enum AgentLog {
    static func writer(quiet: Bool) -> @Sendable (String) -> Void {
        { line in
            guard !quiet else { return }
            let stamp = ISO8601DateFormatter().string(from: Date())
            FileHandle.standardError.write(Data("\(stamp) [\(getpid())] \(line)\n".utf8))
        }
    }
}
