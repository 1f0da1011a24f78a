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
        let lateURL = LateValue()
        let responder = Self.makeResponder(store: store, configuration: configuration, publicURL: lateURL)
        server = try HTTPServer(responder: responder, options: configuration.http)
        baseURL = server.baseURL
        publicURL = Self.trimmed(configuration.publicURL ?? server.baseURL)
        lateURL.set(publicURL)
        sweeper = Sweeper(store: store, interval: configuration.effectiveSweepInterval, grace: configuration.sourceGrace,
                          clock: configuration.clock)
    }

    deinit { stop() }

    public var port: UInt16 { server.port }

    public func stop() {
        sweeper.stop()
        server.stop()
    }

    static func makeResponder(store: any Store, configuration: BackendConfiguration, publicURL: LateValue) -> any HTTPResponder {
        let limiter = RateLimiter(perMinute: configuration.savesPerMinute, burst: configuration.saveBurst)
        return Router(
            save: SaveRoute(store: store, limiter: limiter, publicURL: publicURL, ttl: configuration.ttl,
                           trustedProxies: configuration.trustedProxies, clock: configuration.clock,
                           log: configuration.http.log),
            reader: ReaderRoute(store: store, cache: PageCache(limit: configuration.pageCacheSize), publicURL: publicURL,
                                sourceGrace: configuration.sourceGrace, clock: configuration.clock),
            health: HealthRoute(store: store))
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
