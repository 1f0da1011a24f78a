import Foundation
import MediaImport
import PiperCore
import PiperNet
import PiperSystem

/// `piper share [--backend URL] [--json] [--wait] [--again] [--browser MODE] [--no-clipboard]
/// [--into FOLDER] [-a FILE] LINK...`
struct ShareCommand: Command {
    static let name = "share"
    static let abstract = "Share links: media goes to your library, an article is saved for Instapaper."
    static let discussion: String? = """
        Shares every http(s) URL among the LINK arguments (a URL, text holding one or several
        URLs, or a file path), every line of standard input when LINK is '-', and every line of
        FILE with -a (blank lines and lines starting with # are skipped). Each one takes its own
        route and gets its own outcome line. Media links and local files go to the download and
        import pipeline; a link already downloaded into the library is not fetched again unless
        --again. Any other page is loaded (over HTTP, or in headless Chromium when it needs
        JavaScript), its article is extracted and saved to the backend, and the reader URL is
        printed on stdout and copied to the clipboard. X/Twitter links need your X cookies: see
        'piper login'. A media share returns as soon as the job is durably queued; with --wait it
        follows each job until it is in the library or has failed.
        Exit status, the worst of all items: 0 saved or queued, 64 usage, 65 not an article or no
        URL, 69 backend or network unavailable, 1 otherwise.
        """
    struct Options: OptionGroup {
        var backend = Opt.text("--backend", placeholder: "URL", help: "Save to this backend (https, or http on loopback).")
        var library = LibraryOption.option()
        var json = Opt.flag("--json", help: "Print one JSON object per item (JSON Lines): id, route, status, source, url, libraryPath, title, expires, error.")
        var wait = Opt.flag("--wait", help: "For media, wait until each item is in the library (or has failed).")
        var again = Opt.flag("--again", help: "For media, download a link again even if it is already in the library.")
        var browser = Opt.choice("--browser", placeholder: "MODE",
                                 help: "Articles: auto: Chromium for X/Twitter or pages that need it; always; never.",
                                 default: ShareFlow.Options().browser)
        var noClipboard = Opt.flag("--no-clipboard", help: "Don't copy the URL to the clipboard.")
        var into = Opt.text("--into", placeholder: "FOLDER", help: "Media: the library folder to put it in.")
        var batchFile = Opt.text("-a", "--batch-file", placeholder: "FILE", help: "Also share every line of FILE ('-' for standard input).")
        var newest = Opt.int("--newest", help: "A podcast feed: download its newest N episodes.",
                             default: ShareFlow.Options().feedLimit ?? 10, in: 1...100_000)
        var all = Opt.flag("--all", help: "A podcast feed: download every episode.")
        var route = Opt.choice("--as", placeholder: "ROUTE",
                               help: "auto: a page that names its media (an episode page) goes to the library, else it is an article; article; media.",
                               default: ShareFlow.Options().route)
    }
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "LINK", help: "A URL, text holding URLs, a file path, or '-' for standard input.", optional: true, variadic: true),
    ]

    let backend: String?
    let json: Bool
    let wait: Bool
    let again: Bool
    let browser: BrowserMode
    let browserGiven: Bool
    let copy: Bool
    let into: String?
    let feedLimit: Int?
    let route: RoutePreference
    let items: [String]
    /// What `items` hold to share (worked out once: each item is scanned for URLs).
    let targets: [ShareTarget]
    /// The environment the share works in (`--library` included), handed to any agent it starts.
    let environment: [String: String]

    init(_ parsed: Parsed<Options>) throws {
        environment = try LibraryOption.environment(parsed.library)
        backend = parsed.backend
        json = parsed.json
        wait = parsed.wait
        again = parsed.again
        browser = parsed.browser
        browserGiven = parsed.given(\.browser)
        copy = !parsed.noClipboard
        into = parsed.into
        if parsed.given(\.newest), parsed.all { throw UsageError("--newest and --all cannot be used together") }
        feedLimit = parsed.all ? nil : parsed.newest
        route = parsed.route
        guard !parsed.positionals.isEmpty || parsed.batchFile != nil else {
            throw UsageError("Missing expected argument '<LINK>' (or -a FILE)")
        }
        var items: [String] = []
        for positional in parsed.positionals {
            if positional == "-" { items += Self.lines(of: FileHandle.standardInput.readDataToEndOfFile()) } else { items.append(positional) }
        }
        if let batch = parsed.batchFile {
            let data: Data
            if batch == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let read = FileManager.default.contents(atPath: batch) else {
                    throw UsageError("-a: cannot read '\(batch)'")
                }
                data = read
            }
            items += Self.lines(of: data)
        }
        self.items = items.map(Self.absolutizingExistingPath)
        targets = ShareInput(self.items).targets
        try ShareRouting.checkOptions(targets: targets, into: into != nil, browser: browserGiven, again: again)
    }

    /// A page link among the command line's LINKs is loaded over HTTP: libcurl loads (on a
    /// thread of its own) while the options are read and checked, and the settings after them.
    static func prepare(_ raw: RawArguments) {
        if hasPageLink(ShareInput(raw.positionals.filter { $0 != "-" }).targets) { CurlEasy.preload() }
    }

    static func finish() { CurlEasy.waitForPreload() }

    /// True when a target is a link that may be a page (a media link goes to the queue as it
    /// is, an image link is refused: neither loads libcurl here).
    static func hasPageLink(_ targets: [ShareTarget]) -> Bool {
        targets.contains { target in
            guard case .link = target else { return false }
            let route = ShareRouting.route(of: target)
            return route == .undecided || route == .article
        }
    }

    func run() async throws -> ExitCode {
        // Links from standard input or -a FILE were not on the command line `prepare` read.
        if Self.hasPageLink(targets) {
            CurlEasy.preload()
        }
        defer { CurlEasy.waitForPreload() }
        let config = try loadConfig(backendFlag: backend, environment: environment)
        // Each page is parsed once (the flow's parse step); the route evidence, the readerable
        // check and the extraction read that parse.
        let extractor = PostAwareExtractor(articles: ReadabilityExtractor())
        let ports = SharePorts(
            cookies: FileCookieStore(state: config.state),
            httpLoader: HTTPPageLoader(),
            // --browser never loads no page in Chromium: no search of PATH for it.
            browserLoader: browser == .never ? nil : BrowserPageLoader.system(environment: environment),
            extractor: extractor,
            saver: makeSaveClient(config: config),
            clipboard: SystemClipboard(environment: environment),
            media: makeMediaQueue(config: config, environment: environment, again: again),
            reporter: StderrReporter(quiet: json),
            mediaFinder: PageMediaFinder(fetch: PageMediaFinder.httpFetch))
        var options = ShareFlow.Options(browser: browser, copyToClipboard: copy, mediaFolder: into)
        options.posts = PostLinks.from(environment: environment)
        options.feedLimit = feedLimit
        options.route = route
        let driver = ShareDriver(ports: ports)
        guard !targets.isEmpty else {
            let result = ShareResult.failure(ShareFailure.noURL)
            try report(ShareOutcome(target: nil, result: result))
            return result.exitCode
        }
        var worst = ExitCode.success
        for target in targets {
            let result = driver.run(target, options: options)
            var outcome = ShareOutcome(target: target, result: result)
            if wait, case .mediaQueued(let receipt) = result, receipt.alreadyInLibrary == nil {
                if !json { Output.err(receipt.message) }
                outcome = try await follow(receipt, target: target, config: config)
            }
            try report(outcome)
            worst = ShareOutcome.worse(worst, outcome.exitCode)
        }
        return worst
    }

    /// `--wait` on a media share: where the job ended.
    private func follow(_ receipt: MediaReceipt, target: ShareTarget, config: Config) async throws -> ShareOutcome {
        let display = json ? nil : ProgressDisplay()
        let outcome = try await waitForMedia(receipt, config: config, display: display) { state in
            if !json { Output.note("  \(state)") }
        }
        return ShareOutcome(target: target, receipt: receipt, waited: outcome)
    }

    private func report(_ outcome: ShareOutcome) throws {
        if let warning = outcome.warning { Output.err(warning) }
        if json {
            try Output.json(outcome.report)
            if let note = outcome.clipboardNote { Output.err(note) }
            return
        }
        for line in outcome.messages { Output.err(line) }
        if let out = outcome.stdoutLine { Output.out(out) }
    }

    /// Items of a list: one a line, blank lines and `#` comments skipped.
    static func lines(of data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// A relative path to an existing file becomes absolute (the share input only knows absolute paths).
    static func absolutizingExistingPath(_ item: String) -> String {
        guard !item.contains("://"), !item.hasPrefix("/"), FileManager.default.fileExists(atPath: item) else { return item }
        return URL(fileURLWithPath: item).standardizedFileURL.path
    }
}

/// Progress lines on stderr (silent with --json).
struct StderrReporter: ShareReporter {
    let quiet: Bool
    func progress(_ message: String) {
        if !quiet { Output.note(message) }   // --quiet silences progress too
    }
}
