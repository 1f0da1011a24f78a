import Foundation
import MediaImport
import PiperCore

/// `piper follow URL [--into FOLDER] [--newest N | --all] [--keep N]`: follows a podcast feed.
struct FollowCommand: Command {
    static let name = "follow"
    static let abstract = "Follow a podcast feed: its newest episodes now, and every new one as it comes."
    static let discussion: String? = """
        URL is an RSS or Atom feed, or a page that links its feed. Its newest N episodes are
        queued now into a library folder named after the show (under --into FOLDER), and the
        agent ('piper agent', or the one in 'piper serve') checks the feed about hourly from then
        on (never sooner than the feed asks, further apart while it fails) and downloads each new
        episode once: an episode is known by its GUID, else its file's URL, so a feed that moves
        its files does not download it again, and one you removed from the library is not
        fetched again. Each file is named by its date first. With --keep N only the newest N
        episodes it downloaded are kept. See 'piper follows' and 'piper unfollow'.
        Exit status: 0 followed, 65 not a feed or already followed, 69 the feed could not be read.
        """
    struct Options: OptionGroup {
        var into = Opt.text("--into", placeholder: "FOLDER", help: "The library folder to put the show's folder in.")
        var newest = Opt.int("--newest", help: "Download the newest N episodes now.", default: ShareFlow.Options().feedLimit ?? 10, in: 0...100_000)
        var all = Opt.flag("--all", help: "Download every episode the feed lists now.")
        var keep = Opt.int("--keep", help: "Keep only the newest N episodes downloaded for this show (0: keep all).", default: 0, in: 0...100_000)
    }
    static let arguments: [ArgumentSpec] = [ArgumentSpec(name: "URL", help: "The feed, or a page that links it.")]

    let url: URL
    let into: String?
    let newest: Int?
    let keep: Int?

    init(_ parsed: Parsed<Options>) throws {
        guard let url = URL(string: parsed.positionals[0]), WebURL.isWeb(url) else {
            throw UsageError("URL must be an http(s) address, not '\(parsed.positionals[0])'")
        }
        if parsed.given(\.newest), parsed.all { throw UsageError("--newest and --all cannot be used together") }
        self.url = url
        into = parsed.into
        newest = parsed.all ? nil : parsed.newest
        keep = parsed.keep == 0 ? nil : parsed.keep
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        let check = try FollowRefresher(state: state).start(url: url, into: into, keep: keep, newest: newest)
        if check.queued > 0 {
            _ = try AgentLauncher.ensureWorker(state: state, environment: ProcessInfo.processInfo.environment)
        }
        let follow = check.follow
        Output.note("Following \(follow.title) into \(follow.folder): \(check.queued) episode\(check.queued == 1 ? "" : "s") downloading now; next check \(FollowsCommand.time(follow.nextCheck)).")
        if (try? AgentLock.isHeld(state: state)) != true {
            Output.note("New episodes arrive while an agent runs ('piper agent', or 'piper serve').")
        }
        Output.out(follow.url)
        return .success
    }
}

/// `piper unfollow NAME|URL`.
struct UnfollowCommand: Command {
    typealias Options = NoOptions
    static let name = "unfollow"
    static let abstract = "Stop following a show (its downloaded episodes stay in the library)."
    static let arguments: [ArgumentSpec] = [ArgumentSpec(name: "NAME", help: "The show's title, folder, feed URL or id, as 'piper follows' lists it.")]
    let name: String

    init(_ parsed: Parsed<NoOptions>) throws {
        name = parsed.positionals[0]
    }

    func run() async throws -> ExitCode {
        let journal = try Journal(state: StateFolder.resolve())
        guard let follow = try journal.follow(named: name) else {
            Output.err("Not following \(name) (see 'piper follows')")
            return .dataError
        }
        try journal.removeFollow(follow.id)
        Output.note("No longer following \(follow.title); its episodes stay in \(follow.folder).")
        return .success
    }
}
