import Foundation
import PiperCore
import PiperNet

/// `piper share [--backend URL] [--json] [--wait] [--browser MODE] [--no-clipboard] [--into FOLDER] LINK...`
struct ShareCommand: Command {
    static let name = "share"
    static let abstract = "Share a link: media goes to your library, an article is saved for Instapaper."
    static let discussion: String? = """
        Takes the first http(s) URL among the LINK arguments (they may be URLs, text holding a URL,
        or file paths). Media links and local files go to the download and import pipeline. Any
        other page is loaded (over HTTP, or in headless Chromium when it needs JavaScript), its
        article is extracted and saved to the backend, and the reader URL is printed on stdout and
        copied to the clipboard. X/Twitter links need your X cookies: see 'piper login'.
        A media share returns as soon as the job is durably queued; with --wait it follows the
        job until it is in the library (exit 0) or has failed (exit 1, with the reason).
        Exit status: 0 saved or queued, 64 usage, 65 not an article or no URL, 69 backend or
        network unavailable, 1 otherwise.
        """
    static let options: [OptionSpec] = [
        .value("--backend", placeholder: "URL", help: "Save to this backend (https, or http on loopback)."),
        .flag("--json", help: "Print {\"status\",\"url\",\"title\",\"expires\",\"error\"} on stdout."),
        .flag("--wait", help: "For media, wait until the item is in the library (or has failed)."),
        .value("--browser", placeholder: "MODE", help: "auto (default): Chromium for X/Twitter or pages that need it; always; never."),
        .flag("--no-clipboard", help: "Don't copy the URL to the clipboard."),
        .value("--into", placeholder: "FOLDER", help: "Library folder for a media share."),
    ]
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "LINK", help: "A URL, text holding a URL, or a file path.", variadic: true),
    ]

    let backend: String?
    let json: Bool
    let wait: Bool
    let browser: BrowserMode
    let copy: Bool
    let into: String?
    let items: [String]

    init(parsed: ParsedArguments) throws {
        backend = parsed.value("--backend")
        json = parsed.flag("--json")
        wait = parsed.flag("--wait")
        let mode = parsed.value("--browser") ?? "auto"
        guard let browser = BrowserMode(rawValue: mode) else {
            throw UsageError("--browser takes auto, always or never, not '\(mode)'")
        }
        self.browser = browser
        copy = !parsed.flag("--no-clipboard")
        into = parsed.value("--into")
        items = parsed.positionals.map(Self.absolutizingExistingPath)
    }

    func run() async throws -> ExitCode {
        let config = try Config.load(backendFlag: backend)
        let environment = ProcessInfo.processInfo.environment
        let ports = SharePorts(
            cookies: FileCookieStore(state: config.state),
            httpLoader: HTTPPageLoader(),
            browserLoader: BrowserPageLoader.system(environment: environment),
            extractor: ReadabilityExtractor(),
            saver: HTTPSaveClient(backendBaseURL: config.backendBaseURL),
            clipboard: SystemClipboard(environment: environment),
            media: makeMediaQueue(config: config),
            reporter: StderrReporter(quiet: json))
        let options = ShareFlow.Options(browser: browser, copyToClipboard: copy, mediaFolder: into)
        let result = ShareDriver(ports: ports).run(ShareInput(items), options: options)
        if wait, case .mediaQueued(let receipt) = result {
            return try await follow(receipt, config: config)
        }
        try report(result)
        return result.exitCode
    }

    /// `--wait` on a media share: report where the job ended.
    private func follow(_ receipt: MediaReceipt, config: Config) async throws -> ExitCode {
        if !json { Output.err(receipt.message) }
        let outcome = try await waitForMedia(receipt, config: config) { state in
            if !json { Output.err("  \(state)") }
        }
        let status: String, error: String?, code: ExitCode
        switch outcome {
        case .imported(let file):
            (status, error, code) = ("imported", nil, .success)
            if !json { Output.err("In the library\(file.map { ": \($0)" } ?? "")") }
        case .failed(let reason):
            (status, error, code) = ("failed", reason, .failure)
            if !json { Output.err("Failed: \(reason)") }
        case .stillQueued(let seconds):
            (status, error, code) = ("queued", "no agent started the download within \(seconds) s; it stays queued for 'piper agent'", .failure)
            if !json { Output.err("Still queued: \(error ?? "")") }
        }
        if json {
            try Output.json(ShareReport(status: status, url: receipt.url, title: nil, error: error))
        } else {
            Output.out(receipt.url)
        }
        return code
    }

    /// A relative path to an existing file becomes absolute (the share input only knows absolute paths).
    static func absolutizingExistingPath(_ item: String) -> String {
        guard !item.contains("://"), !item.hasPrefix("/"), FileManager.default.fileExists(atPath: item) else { return item }
        return URL(fileURLWithPath: item).standardizedFileURL.path
    }
}
