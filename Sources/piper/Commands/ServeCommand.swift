import Foundation
import PiperCore
import PiperNet
import PiperServer
import PiperSystem

/// `piper serve`: the backend. Stores saves for a TTL and serves them as sanitized reader pages.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Run the backend: POST /save stores an article, GET /<id> serves it as a reader page."
    static let discussion: String? = """
        Saves live for --ttl seconds in SQLite (default: piper-serve.sqlite in the
        state folder, or --db PATH) or in PostgreSQL (--postgres URL) so several servers can share
        them behind one balancer. Prints 'listening on http://HOST:PORT' once ready; --port 0
        picks a free port. Stops gracefully on SIGINT or SIGTERM.
        It is also the other end of a phone's or browser's share sheet: POST /share (a paired
        device or Authorization: Bearer TOKEN), the installable web app at /, and the download
        agent for shared media. Server-side fetches refuse private and local addresses unless
        --allow-host opens them. See 'piper pair' and 'piper devices'.
        It serves the library too: /library (the page, for paired devices), /media/ID (streamed
        with Range) and the private podcast feed (see 'piper library feed'); --public-url is the
        address the feed's links start with.
        """
    /// Every default comes from `BackendConfiguration` and `HTTPServerOptions`, the types that use them.
    struct Options: OptionGroup {
        private static let defaults = BackendConfiguration()
        var host = Opt.value("--host", placeholder: "ADDRESS", help: "Numeric address to listen on.",
                             default: Self.defaults.http.host, expects: "a numeric address") { $0.isEmpty ? nil : $0 }
        var port = Opt.int("--port", help: "Port to listen on; 0 picks a free one.",
                           default: Int(BackendConfiguration.defaultPort), in: 0...65535)
        var db = Opt.text("--db", placeholder: "PATH", help: "SQLite database file (default: piper-serve.sqlite in the state folder).")
        var postgres = Opt.text("--postgres", placeholder: "URL", help: "Store saves in PostgreSQL instead of SQLite.")
        var postgresPool = Opt.int("--postgres-pool", help: "Connections to PostgreSQL this server opens at most, shared by saves, rate limits and credentials.",
                                   default: PostgresDatabase.defaultConnections, in: 1...1000)
        var publicURL = Opt.text("--public-url", placeholder: "URL", help: "Base of returned URLs (default: http://HOST:PORT).")
        var ttl = Opt.int("--ttl", placeholder: "SECONDS", help: "How long a save lives.",
                          default: Int(Self.defaults.ttl), in: 1...(365 * 24 * 3600))
        var rateLimit = Opt.int("--rate-limit", placeholder: "PER_MINUTE",
                                help: "Saves per minute per client once its burst is spent; 0 disables.",
                                default: Int(Self.defaults.savesPerMinute), in: 0...1_000_000)
        var burst = Opt.int("--burst", help: "Saves a client may make at once before --rate-limit applies.",
                            default: Int(Self.defaults.saveBurst), in: 1...1_000_000)
        var threads = Opt.int("--threads", help: "HTTP worker threads.", default: Self.defaults.http.threads, in: 1...256)
        var trustedProxy = Opt.list("--trusted-proxy", placeholder: "ADDRESS",
                                    help: "A balancer whose X-Forwarded-For names the client for rate limits (repeatable).")
        var pair = Opt.flag("--pair", help: "Print a one-time pairing link and QR code once listening.")
        var noQR = Opt.flag("--no-qr", help: "With --pair, print only the link.")
        var allowHost = Opt.list("--allow-host", placeholder: "HOST|CIDR",
                                 help: "Let shares fetch from this private host or range (repeatable).")
        var saveRequiresToken = Opt.flag("--save-requires-token", help: "POST /save needs a credential too (default: anonymous).")
        var maxConnectionsPerClient = Opt.int("--max-connections-per-client", help: "Open connections one client address may hold; 0 disables (a --trusted-proxy is not counted).",
                                              default: Self.defaults.http.clientLimits.maxConnectionsPerClient, in: 0...1_000_000)
        var headTimeout = Opt.int("--head-timeout", placeholder: "SECONDS", help: "Deadline for a request's head (and for an idle keep-alive connection); 0 disables.",
                                  default: Int(Self.defaults.http.clientLimits.headTimeout), in: 0...3600)
        var minBodyRate = Opt.int("--min-body-rate", placeholder: "BYTES_PER_SECOND",
                                  help: "Slowest a request body may arrive, averaged, after \(Int(Self.defaults.http.clientLimits.bodyRateGrace)) s; 0 disables.",
                                  default: Self.defaults.http.clientLimits.minBodyBytesPerSecond, in: 0...(1 << 30))
        var shareRateLimit = Opt.int("--share-rate-limit", placeholder: "PER_MINUTE",
                                     help: "Shares per minute per device once its burst is spent; 0 disables.",
                                     default: Int(ShareServices.defaultSharesPerMinute), in: 0...1_000_000)
        var library = LibraryOption.option()
        var maxUpload = Opt.int("--max-upload", placeholder: "BYTES", help: "Largest file a share may upload.",
                                default: ServeSharing.defaultMaxUploadBytes, in: 1...(1 << 40))
        var browserTabs = Opt.int("--browser-tabs", placeholder: "N", help: "Pages the server's headless Chromium loads at once.",
                                  default: BrowserPool.defaultTabs, in: 1...64)
    }

    let configuration: BackendConfiguration
    /// The store chosen (--db or --postgres): saves, rate limits and who may share.
    let choice: CredentialsChoice
    let sharing: ServeSharing

    init(_ parsed: Parsed<Options>) throws {
        let environment = try LibraryOption.environment(parsed.library)
        var configuration = BackendConfiguration()
        configuration.http.host = parsed.host
        configuration.http.port = UInt16(parsed.port)
        configuration.http.threads = parsed.threads
        configuration.http.clientLimits.maxConnectionsPerClient = parsed.maxConnectionsPerClient
        configuration.http.clientLimits.headTimeout = TimeInterval(parsed.headTimeout)
        configuration.http.clientLimits.minBodyBytesPerSecond = parsed.minBodyRate
        configuration.ttl = TimeInterval(parsed.ttl)
        configuration.savesPerMinute = Double(parsed.rateLimit)
        configuration.saveBurst = Double(parsed.burst)
        if let url = parsed.publicURL {
            guard let parsedURL = URL(string: url), WebURL.isWeb(parsedURL) else {
                throw UsageError("--public-url must be an http(s) URL, not '\(url)'")
            }
            configuration.publicURL = url
        }
        configuration.trustedProxies = Set(parsed.trustedProxy)
        choice = try CredentialsChoice(database: parsed.db, postgres: parsed.postgres, postgresConnections: parsed.postgresPool)
        configuration.saveRequiresToken = parsed.saveRequiresToken
        for value in parsed.allowHost where value.isEmpty || value.contains("/") && AddressRange(value) == nil {
            throw UsageError("--allow-host takes a host name, an address or a CIDR range, not '\(value)'")
        }
        var sharing = ServeSharing(allowHosts: parsed.allowHost, maxUploadBytes: Int64(parsed.maxUpload), sharesPerMinute: Double(parsed.shareRateLimit),
                                   pair: parsed.pair, environment: environment)
        sharing.browserTabs = parsed.browserTabs
        sharing.pairQR = !parsed.noQR
        self.sharing = sharing
        self.configuration = configuration
    }

    func run() async throws -> ExitCode {
        let shutdown = ShutdownSignal()
        let state = StateFolder.resolve(environment: sharing.environment)
        try state.ensure()
        var configuration = configuration
        // One handle for every PostgreSQL store: one pool, one migration at start.
        let postgres = try choice.openPostgres()
        let catalog = ServeSharing.catalog(postgres)
        ServeSharing.adoptLibrary(catalog, state: state)
        configuration.share = sharing.services(state: state, catalog: catalog)
        let store: any Store
        if let postgres {
            store = PostgresStore(database: postgres)
            configuration.sharedRateLimits = PostgresRateLimits(database: postgres)
        } else {
            let path = choice.database ?? state.serverDatabase.path
            do {
                store = try SQLiteStore(path: path)
            } catch {
                throw DatabaseOpenError(path: path, reason: "\(error)")
            }
        }
        configuration.share?.credentials = try choice.store(state: state, postgres: postgres)
        ServeSharing.keepXLoginInStore(&configuration.share, postgres: postgres)
        let backend = try Backend(store: store, configuration: configuration)
        if configuration.publicURL != nil, let credentials = configuration.share?.credentials {
            // `piper pair`, `library feed` and `devices` on this store build their links on it.
            do { try ServerAddress.record(backend.publicURL, in: credentials) } catch {
                Output.err("Warning: cannot record the public URL in the store (\(error)); 'piper pair' needs --url")
            }
        }
        sharing.startAgent(state: state, catalog: catalog)
        Output.out("listening on \(backend.baseURL)")
        for line in Self.whereToReach(backend, host: configuration.http.host, publicURL: configuration.publicURL) { Output.note(line) }
        if sharing.pair, let credentials = configuration.share?.credentials {
            try sharing.printPairing(registry: DeviceRegistry(state: state, credentials: credentials), publicURL: backend.publicURL)
        }
        let signal = await shutdown.wait()
        Output.err("received signal \(signal), shutting down")
        backend.stop()
        (configuration.share?.browserLoader as? BrowserPool)?.stop()   // its own process group: it would outlive us
        return .success
    }
}

extension ServeCommand {
    /// Where clients and phones reach the server. Listening on every interface (`0.0.0.0`,
    /// `::`), that is this machine's network addresses, not the wildcard (no client can connect
    /// to it, and `piper config set backend` refuses it); with `--public-url`, that first.
    static func whereToReach(_ backend: Backend, host: String, publicURL: String?) -> [String] {
        var urls: [String] = []
        if let publicURL { urls.append(backend.publicURL) }
        if host == "0.0.0.0" || host == "::" {
            urls += NetworkAddresses.reachable().filter { host == "::" || !$0.contains(":") }.map { NetworkAddresses.url($0, port: backend.port) }
        } else if publicURL == nil {
            urls.append(backend.baseURL)
        }
        guard let first = urls.first else {
            return ["This machine has no network address a phone could use yet; clients on it use http://127.0.0.1:\(backend.port)"]
        }
        var lines = ["Reach it at: " + urls.joined(separator: "  ")]
        lines.append("Point clients at it: piper config set backend \(first)  (or PIPER_BACKEND_URL=\(first))")
        return lines
    }
}

/// The SQLite file for `piper serve` could not be opened: say which and what to do.
struct DatabaseOpenError: PiperError {
    let path: String
    let reason: String
    var description: String {
        "Cannot open the database \(path) (\(reason)). Check that its folder exists and is writable, or pass --db another path."
    }
    var category: ErrorCategory { .other }
}
