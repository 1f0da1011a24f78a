import Foundation
import MediaImport
import PiperCore
import PiperNet
import PiperServer

/// `piper serve`'s share sheet end: the same adapters `piper share` uses (libcurl page loader,
/// Readability, the X cookies, the download journal), every fetch behind the SSRF guard, and
/// the download agent running inside the server. The guard is a value each fetcher built here
/// carries (page loader, media finder, enqueue probe, the agent's downloader), so none depends
/// on which of `services` and `agent` runs first.
struct ServeSharing {
    /// The default upload cap, 2 GiB.
    static let defaultMaxUploadBytes = 2 << 30
    let allowHosts: [String]
    let maxUploadBytes: Int64
    let sharesPerMinute: Double
    let pair: Bool
    /// `--no-qr`: `--pair` prints the link alone.
    var pairQR = true
    /// Pages the server's browser loads at once (`--browser-tabs`).
    var browserTabs = BrowserPool.defaultTabs
    /// How large the server's browser may grow: a renderer per tab, and `BrowserLimits.server`'s
    /// heap and memory (a cgroup when the server may make one).
    var browserLimits: BrowserLimits {
        var limits = BrowserLimits.server
        limits.renderers = max(1, browserTabs)
        return limits
    }
    /// The environment the server works in (`--library` included), handed to the agent and
    /// to the browser it starts.
    let environment: [String: String]
    /// How the browser's proxy resolves names (nil: the system's resolver, as `piper serve`
    /// always does); a test makes x.com a local server with it.
    var resolve: (@Sendable (String) -> [NetworkAddress])?

    /// The SSRF guard of every fetch made for a client: private and local addresses refused
    /// unless `--allow-host` opens them.
    var fetchGuard: FetchGuard { FetchGuard(policy: FetchPolicy(allowing: allowHosts)) }

    func services(state: StateFolder) -> ShareServices { built(state: state).services }

    /// The share services and the browser pool among them (nil: no browser), which the server
    /// owns as a part of its own.
    private func built(state: StateFolder) -> (services: ShareServices, browser: BrowserPool?) {
        let fetchGuard = self.fetchGuard
        let loader = HTTPPageLoader(connectionGuard: fetchGuard.connectionGuard)
        let queue = mediaQueue(state: state)
        // A page that needs a browser (X, a page built by script) loads in the server's one
        // headless Chromium (a pool of tabs, started on first need), when it is installed,
        // whose every connection goes through the guarded proxy.
        let proxy = BrowserPageLoader.find(environment: environment) == nil ? nil
            : try? resolve.map { try GuardedProxy(policy: fetchGuard.policy, resolve: $0) } ?? GuardedProxy(policy: fetchGuard.policy)
        var browser = proxy.flatMap { _ in BrowserPageLoader.system(environment: environment) }
        if let proxy { browser?.extraFlags += BrowserGuard.flags(proxyPort: proxy.port) }
        let pool = browser.map { BrowserPool(loader: $0, maxTabs: browserTabs, limits: browserLimits) }
        var services = ShareServices(
            cookies: FileCookieStore(state: state), httpLoader: loader, browserLoader: pool,
            extractor: PostAwareExtractor(articles: ReadabilityExtractor()), media: queue, jobs: JournalJobs(state: state),
            fetchGuard: fetchGuard, state: state)
        services.browserProxy = proxy
        services.posts = PostLinks.from(environment: environment)
        services.maxUploadBytes = maxUploadBytes
        services.sharesPerMinute = sharesPerMinute
        // What `PageMediaFinder.httpFetch` does, through the guarded loader: the feeds and pages
        // the finder reads are fetched for a client too.
        services.mediaFinder = PageMediaFinder(fetch: { url in try? loader.load(url, cookies: []).body })
        return (services, pool)
    }

    /// Where shared media is queued: the journal, checked against the library's `catalog`
    /// (nil: the state folder's `library.sqlite`), its links probed through the guard.
    func mediaQueue(state: StateFolder, catalog: (any CatalogStore & Sendable)? = nil) -> JournalMediaQueue {
        var queue = JournalMediaQueue(state: state, environment: environment)
        queue.takesFilesFrom = state.uploads   // uploads are renamed into the journal, not copied
        queue.probe = EnqueueProbe(connectionGuard: fetchGuard.connectionGuard)
        queue.catalog = catalog
        return queue
    }

    /// The agent that works the journal inside the server: its downloads carry the server's
    /// guard; `stop` stops it at a safe point when the server stops.
    /// It imports into the library `stores` names (the store's catalog with `--postgres`).
    func agent(state: StateFolder, stop: AgentStop? = nil, stores: AgentStores = AgentStores()) -> Agent {
        let agent = Agent(state: state, settings: AgentSettings.from(TunableValues.resolve(environment: environment)),
                          importer: try? AgentImporterFactory.make(state: state, catalog: stores.catalog),
                          log: AgentLog.writer(quiet: false), connectionGuard: fetchGuard.connectionGuard, stop: stop)
        agent.catalog = stores.catalog
        agent.followStore = stores.follows
        return agent
    }

    /// What the server shares through: its services, the browser pool as a part the server
    /// owns (started on first need, ended when the server stops), and the agent working the
    /// journal on a thread of its own, so shared media lands in this server's library.
    func server(state: StateFolder) -> ServerSharing {
        let (services, pool) = built(state: state)
        let parts = pool.map { [BrowserPart(pool: $0)] } ?? []
        var sharing = ServerSharing(services: services, parts: parts, agent: { stop, stores in self.agent(state: state, stop: stop, stores: stores) })
        // Shared media is checked against the library's catalog wherever the database keeps it.
        sharing.media = { catalog in self.mediaQueue(state: state, catalog: catalog) }
        return sharing
    }

    /// `--pair`: a pairing URL (and its QR code) for the running server, on stderr.
    func printPairing(registry: DeviceRegistry, publicURL: String) throws {
        let code = try registry.createPairing()
        for line in PairCommand.lines(base: publicURL, code: code, qr: pairQR) { Output.err(line) }
    }
}
