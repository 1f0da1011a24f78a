import Foundation
import PiperCore
import PiperServer

/// `piper pair [--url BASE] [--share-only]`: a one-time pairing URL for a phone or a browser,
/// and its QR code.
struct PairCommand: Command {
    static let name = "pair"
    static let abstract = "Print a one-time link (and QR code) that lets a phone or browser share to piper serve."
    static let discussion: String? = """
        The link works once, for 10 minutes. Opening it on a device sets that device's cookie, so
        the browser (and the web app installed from it) can share to the server; 'piper devices'
        lists and revokes paired devices. The browser paired is the owner's (it can connect X, make
        tokens, remove library items and see every device's shares); with --share-only it may only
        share and see its own shares (for someone else's phone). Run it with the same state folder
        as 'piper serve'.
        The link's base is --url, else the backend URL (PIPER_BACKEND_URL or config.json), else
        the --public-url 'piper serve' recorded in its store. The pairing is kept in the server's
        store: pass the same --db or --postgres as 'piper serve'.
        """
    struct Options: OptionGroup {
        var url = Opt.text("--url", placeholder: "URL", help: "The server's public URL (default: the backend URL).")
        var noQR = Opt.flag("--no-qr", help: "Print only the link.")
        var shareOnly = Opt.flag("--share-only", help: "Pair a browser that may only share (not the owner's).")
        var db = CredentialsChoice.databaseOption()
        var postgres = CredentialsChoice.postgresOption()
    }

    let url: String?
    let qr: Bool
    let scope: DeviceScope
    let credentials: CredentialsChoice

    init(_ parsed: Parsed<Options>) throws {
        url = parsed.url
        qr = !parsed.noQR
        scope = parsed.shareOnly ? .share : .owner
        credentials = try CredentialsChoice(database: parsed.db, postgres: parsed.postgres)
        if let url, WebURL.http(url) == nil { throw UsageError("--url must be an http(s) URL, not '\(url)'") }
    }

    func run() async throws -> ExitCode {
        let config = try loadConfig(backendFlag: nil)
        // A link to the placeholder backend reaches nothing: say so instead of printing it.
        guard let base = credentials.base(given: url, config: config, state: config.state) else { throw PairError.noAddress }
        if let warning = Self.unreachableWarning(base) { Output.err(warning) }
        let code = try credentials.registry(state: config.state).createPairing(scope: scope)
        var lines = Self.lines(base: base, code: code, qr: qr)
        lines.append(scope == .owner ? "The browser paired acts as the owner; for someone else's phone use --share-only."
                     : "The browser paired may only share.")
        Output.out(lines[0])
        for line in lines.dropFirst() { Output.err(line) }
        return .success
    }

    /// A warning for a base no phone can open (this machine's own loopback address), or nil.
    static func unreachableWarning(_ base: String) -> String? {
        guard let host = URL(string: base)?.host, Config.isLoopback(host) else { return nil }
        return "Warning: \(host) is this machine's own address, so a phone cannot open this link; pass --url with the name "
            + "or address the phone reaches the server at (piper serve --host 0.0.0.0 prints them)"
    }

    /// The pairing URL first, then the QR code and a note.
    static func lines(base: String, code: String, qr: Bool = true) -> [String] {
        var trimmed = base
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let link = "\(trimmed)/pair?code=\(code)"
        var lines = [link]
        if qr, let drawing = TerminalQR.render(link) { lines.append(drawing) }
        lines.append("Open this link on the phone or browser and press its button to pair it (valid 10 minutes, once).")
        return lines
    }
}

/// `piper pair` with nothing to build the link on.
enum PairError: PiperError {
    case noAddress

    var description: String {
        "No address for the pairing link: pass the one the phone will use with --url (e.g. --url https://piper.example.org), "
            + "start piper serve with --public-url, or set the backend (piper config set backend URL)"
    }
    var category: ErrorCategory { .configuration }
}
