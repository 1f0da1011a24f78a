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
        episodes it downloaded are kept. With --opml FILE every feed of an OPML subscription
        list (a podcast app's export) is followed, those already followed skipped, each taking
        its newest episode unless --newest or --all says otherwise. See 'piper follows' (whose
        --opml writes such a list) and 'piper unfollow'.
        Exit status: 0 followed, 65 not a feed or already followed, 69 the feed could not be read.
        """
    struct Options: OptionGroup {
        var into = Opt.text("--into", placeholder: "FOLDER", help: "The library folder to put the show's folder in.")
        var newest = Opt.int("--newest", help: "Download the newest N episodes now.", default: ShareFlow.Options().feedLimit ?? 10, in: 0...100_000)
        var all = Opt.flag("--all", help: "Download every episode the feed lists now.")
        var keep = Opt.int("--keep", help: "Keep only the newest N episodes downloaded for this show (0: keep all).", default: 0, in: 0...100_000)
        var opml = Opt.text("--opml", placeholder: "FILE", help: "Follow every feed of an OPML subscription list ('-' for standard input).")
    }
    static let arguments: [ArgumentSpec] = [ArgumentSpec(name: "URL", help: "The feed, or a page that links it.", optional: true)]

    let url: URL?
    let opml: String?
    let into: String?
    let newest: Int?
    let keep: Int?

    init(_ parsed: Parsed<Options>) throws {
        opml = parsed.opml
        switch (parsed.positionals.first, opml) {
        case (nil, nil): throw UsageError("Give the feed's URL, or --opml FILE")
        case (.some, .some): throw UsageError("Give the feed's URL or --opml FILE, not both")
        case (let text?, nil):
            guard let url = URL(string: text), WebURL.isWeb(url) else { throw UsageError("URL must be an http(s) address, not '\(text)'") }
            self.url = url
        case (nil, .some): url = nil
        }
        if parsed.given(\.newest), parsed.all { throw UsageError("--newest and --all cannot be used together") }
        into = parsed.into
        // A whole list at once takes each show's newest episode unless told otherwise.
        newest = parsed.all ? nil : (opml != nil && !parsed.given(\.newest) ? 1 : parsed.newest)
        keep = parsed.keep == 0 ? nil : parsed.keep
    }

    func run() async throws -> ExitCode {
        let state = StateFolder.resolve()
        guard let url else { return try followList(state: state) }
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

    /// `--opml FILE`: follows each feed of the list in turn; one that fails is said and the
    /// rest go on. The exit status is the worst of them (an already followed one is no failure).
    private func followList(state: StateFolder) throws -> ExitCode {
        let path = opml ?? "-"
        guard let bytes = path == "-" ? InputBytes.standardInput() : InputBytes.file(path) else {
            Output.err("Cannot read \(path)")
            return .dataError
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let feeds = OPML.feeds(in: text)
        guard !feeds.isEmpty else {
            Output.err("\(path) lists no feeds (an OPML file with <outline xmlUrl=\"…\"> entries)")
            return .dataError
        }
        let refresher = FollowRefresher(state: state)
        var worst = ExitCode.success
        var queued = 0
        var followed = 0
        for feed in feeds {
            do {
                let check = try refresher.start(url: feed.url, into: into, keep: keep, newest: newest)
                queued += check.queued
                followed += 1
                Output.note("Following \(check.follow.title) into \(check.follow.folder)")
                Output.out(check.follow.url)
            } catch FollowRefresher.StartError.alreadyFollowed(let title) {
                Output.note("Already following \(title)")
            } catch let error as FollowRefresher.StartError {
                Output.err("\(feed.title): \(error)")
                worst = ExitCode(error.category).rawValue > worst.rawValue ? ExitCode(error.category) : worst
            }
        }
        if queued > 0 { _ = try AgentLauncher.ensureWorker(state: state, environment: ProcessInfo.processInfo.environment) }
        Output.note("Followed \(followed) of \(feeds.count) feeds; \(queued) episode\(queued == 1 ? "" : "s") downloading now.")
        return worst
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
