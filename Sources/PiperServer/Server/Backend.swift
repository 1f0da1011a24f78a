import Foundation
import PiperCore

/// The running backend: the HTTP server with its routes over one store, plus the expiry sweep.
/// `init` starts both; `stop()` stops both (also on deinit).
public final class Backend: Sendable {
    public let store: any Store
    public let configuration: BackendConfiguration
    private let server: HTTPServer
    private let sweeper: Sweeper
    /// `http://host:port` where this server listens.
    public let baseURL: String
    /// The base of the URLs `/save` returns.
    public let publicURL: String

    public init(store: any Store, configuration: BackendConfiguration) throws {
        self.store = store
        self.configuration = configuration
        let lateURL = LateValue(), lateBase = LateValue()
        var http = configuration.http
        http.trustedProxies = configuration.trustedProxies
        let auth = try configuration.share.map {
            try ShareAuth(registry: DeviceRegistry(state: $0.state), publicURL: lateURL, baseURL: lateBase)
        }
        if let share = configuration.share, let auth {
            http.bodyStreams = ShareUpload.factory(state: share.state, limit: share.maxUploadBytes) { headers in
                let request = HTTPRequest(method: "POST", path: "/share", headers: headers)
                do {
                    try auth.refuseCrossSite(request)
                    _ = try auth.require(request)
                    return nil
                } catch {
                    return error as? HTTPError ?? .internalError
                }
            }
        }
        let router = Self.makeRouter(store: store, configuration: configuration, publicURL: lateURL, auth: auth)
        http.prepared = CachedReaderPages(router.reader)
        server = try HTTPServer(responder: router, options: http)
        baseURL = server.baseURL
        publicURL = Self.trimmed(configuration.publicURL ?? server.baseURL)
        lateURL.set(publicURL)
        lateBase.set(baseURL)
        sweeper = Sweeper(store: store, interval: configuration.effectiveSweepInterval, grace: configuration.sourceGrace,
                          clock: configuration.clock)
    }

    deinit { stop() }

    public var port: UInt16 { server.port }

    public func stop() {
        sweeper.stop()
        server.stop()
    }

    static func makeRouter(store: any Store, configuration: BackendConfiguration, publicURL: LateValue,
                           auth: ShareAuth? = nil) -> Router {
        let limiter = RateLimiter(perMinute: configuration.savesPerMinute, burst: configuration.saveBurst)
        var save = SaveRoute(store: store, limiter: limiter, publicURL: publicURL, ttl: configuration.ttl,
                             trustedProxies: configuration.trustedProxies, clock: configuration.clock,
                             log: configuration.http.log)
        if configuration.saveRequiresToken { save.auth = auth }
        var router = Router(
            save: save,
            reader: ReaderRoute(store: store, cache: PageCache(limit: configuration.pageCacheSize), publicURL: publicURL,
                                sourceGrace: configuration.sourceGrace, clock: configuration.clock),
            health: HealthRoute(store: store))
        if let services = configuration.share, let auth {
            let saver = StoreSaveClient(store: store, publicURL: publicURL, ttl: configuration.ttl, clock: configuration.clock)
            let runner = ShareRunner(services: services, saver: saver)
            router.sharing = Router.Sharing(
                share: ShareRoute(auth: auth, runner: runner,
                                  limiter: RateLimiter(perMinute: services.sharesPerMinute, burst: services.shareBurst),
                                  clock: configuration.clock),
                pair: PairRoute(auth: auth, clock: configuration.clock),
                web: WebAppRoute(auth: auth, runner: runner, publicURL: publicURL, clock: configuration.clock))
            router.library = LibraryRoutes(shelf: LibraryShelf(state: services.state), auth: auth, publicURL: publicURL)
        }
        return router
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension HTTPServerStartError: PiperError {
    public var category: ErrorCategory { .unavailable }
}

extension StoreError: PiperError {
    public var category: ErrorCategory { .unavailable }
}
