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
            try ShareAuth(registry: $0.credentials.map { [state = $0.state] in try DeviceRegistry(state: state, credentials: $0) }
                                        ?? DeviceRegistry(state: $0.state),
                          publicURL: lateURL, baseURL: lateBase,
                          trustedProxies: configuration.trustedProxies)
        }
        let table = Self.routes(store: store, configuration: configuration, publicURL: lateURL, auth: auth)
        if let share = configuration.share, auth != nil {
            // An upload is refused by the table's own rules before its body is read.
            http.bodyStreams = ShareUpload.factory(state: share.state, limit: share.maxUploadBytes) { head in
                table.refusalBeforeBody(head)
            }
        }
        http.prepared = table.prepared
        http.plan = table
        server = try HTTPServer(responder: table, options: http)
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

    /// Stops gracefully (`HTTPServer.stop(grace:)`): no new connections, requests under way get
    /// `grace` seconds, the rest are answered 503 with `Retry-After`. Returns how many were.
    @discardableResult
    public func stop(grace: TimeInterval) -> Int {
        sweeper.stop()
        return server.stop(grace: grace)
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
