import Foundation
import PiperCore
import PiperServer

/// `piper serve`: the backend. Stores saves for a TTL and serves them as sanitized reader pages.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Run the backend: POST /save stores an article, GET /<id> serves it as a reader page."
    static let discussion: String? = """
        Saves live for --ttl seconds (default 3600) in SQLite (default: piper-serve.sqlite in the
        state folder, or --db PATH) or in PostgreSQL (--postgres URL) so several servers can share
        them behind one balancer. Prints 'listening on http://HOST:PORT' once ready; --port 0
        picks a free port. Stops gracefully on SIGINT or SIGTERM.
        It is also the other end of a phone's or browser's share sheet: POST /share (a paired
        device or Authorization: Bearer TOKEN), the installable web app at /, and the download
        agent for shared media. Server-side fetches refuse private and local addresses unless
        --allow-host opens them. See 'piper pair' and 'piper devices'.
        """
    static let options: [OptionSpec] = [
        .value("--host", placeholder: "ADDRESS", help: "Numeric address to listen on (default 127.0.0.1)."),
        .value("--port", placeholder: "N", help: "Port to listen on; 0 picks a free one (default 8080)."),
        .value("--db", placeholder: "PATH", help: "SQLite database file (default: in the state folder)."),
        .value("--postgres", placeholder: "URL", help: "Store saves in PostgreSQL instead of SQLite."),
        .value("--public-url", placeholder: "URL", help: "Base of returned URLs (default http://HOST:PORT)."),
        .value("--ttl", placeholder: "SECONDS", help: "How long a save lives (default 3600)."),
        .value("--rate-limit", placeholder: "PER_MINUTE",
               help: "Saves per minute per client once its burst is spent; 0 disables (default 30)."),
        .value("--burst", placeholder: "N", help: "Saves a client may make at once before --rate-limit applies (default 60)."),
        .value("--threads", placeholder: "N", help: "HTTP worker threads (default 8)."),
        .value("--trusted-proxy", placeholder: "ADDRESS",
               help: "A balancer whose X-Forwarded-For names the client for rate limits (repeatable).", repeatable: true),
        .flag("--pair", help: "Print a one-time pairing link and QR code once listening."),
        .value("--allow-host", placeholder: "HOST|CIDR",
               help: "Let shares fetch from this private host or range (repeatable).", repeatable: true),
        .flag("--save-requires-token", help: "POST /save needs a credential too (default: anonymous)."),
        .value("--max-upload", placeholder: "BYTES", help: "Largest file a share may upload (default 2 GiB)."),
    ]

    let configuration: BackendConfiguration
    let database: String?
    let postgres: String?
    let sharing: ServeSharing

    init(parsed: ParsedArguments) throws {
        var configuration = BackendConfiguration()
        configuration.http.host = parsed.value("--host") ?? "127.0.0.1"
        configuration.http.port = UInt16(try parsed.int("--port", in: 0...65535) ?? 8080)
        configuration.http.threads = try parsed.int("--threads", in: 1...256) ?? HTTPServerOptions().threads
        configuration.ttl = TimeInterval(try parsed.int("--ttl", in: 1...(365 * 24 * 3600)) ?? 3600)
        configuration.savesPerMinute = Double(try parsed.int("--rate-limit", in: 0...1_000_000) ?? 30)
        configuration.saveBurst = Double(try parsed.int("--burst", in: 1...1_000_000) ?? 60)
        if let url = parsed.value("--public-url") {
            guard let parsedURL = URL(string: url), let scheme = parsedURL.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", parsedURL.host != nil else {
                throw UsageError("--public-url must be an http(s) URL, not '\(url)'")
            }
            configuration.publicURL = url
        }
        configuration.trustedProxies = Set(parsed.allValues("--trusted-proxy"))
        database = parsed.value("--db")
        postgres = parsed.value("--postgres")
        if database != nil && postgres != nil { throw UsageError("--db and --postgres cannot be used together") }
        configuration.saveRequiresToken = parsed.flag("--save-requires-token")
        for value in parsed.allValues("--allow-host") where value.isEmpty || value.contains("/") && AddressRange(value) == nil {
            throw UsageError("--allow-host takes a host name, an address or a CIDR range, not '\(value)'")
        }
        sharing = ServeSharing(allowHosts: parsed.allValues("--allow-host"),
                               maxUploadBytes: Int64(try parsed.int("--max-upload", in: 1...(1 << 40)) ?? (2 << 30)),
                               pair: parsed.flag("--pair"))
        self.configuration = configuration
    }

    func run() async throws -> ExitCode {
        let shutdown = ShutdownSignal()
        let state = StateFolder.resolve()
        _ = try state.ensure()
        var configuration = configuration
        configuration.share = sharing.services(state: state)
        let store: any Store
        if let postgres {
            store = try PostgresStore(url: postgres)
        } else if let database {
            store = try SQLiteStore(path: database)
        } else {
            store = try SQLiteStore(path: state.serverDatabase.path)
        }
        let backend = try Backend(store: store, configuration: configuration)
        sharing.startAgent(state: state)
        Output.out("listening on \(backend.baseURL)")
        if sharing.pair { try sharing.printPairing(state: state, publicURL: backend.publicURL) }
        let signal = await shutdown.wait()
        Output.err("received signal \(signal), shutting down")
        backend.stop()
        return .success
    }
}
