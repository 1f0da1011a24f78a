import Foundation
import MediaImport
import PiperCore

/// The running server and the one owner of its long-lived parts, in the spirit of
/// Hummingbird's `Application` with its service group: built from a `ServerConfiguration`, it
/// starts the parts in a declared order (the database; with sharing the browser's proxy, the
/// parts the CLI built such as the browser, and the agent; the HTTP listener last), answers
/// `/healthz` with each part's health, and stops them in reverse order: the listener first
/// (no new connections; requests and shares under way finish within the grace period, the
/// rest are answered 503 with `Retry-After`), then the agent at a safe point, the browser, its
/// proxy, and the database last.
///
/// `@unchecked Sendable`: `started` is only touched while holding `lock`; the parts are
/// immutable after `init` and Sendable themselves.
public final class ServerApp: @unchecked Sendable {
    /// A stop's grace period unless `--grace` says otherwise: long enough for a share's page
    /// load (a share gives up on its own after 30 s at most) in the usual case, short beside a
    /// service manager's own kill timeout (systemd's default is 90 s).
    public static let defaultGrace: TimeInterval = 20

    public let configuration: ServerConfiguration
    /// Every part in start order.
    public let parts: [any ServerPart]
    private let database: DatabasePart
    private let http: HTTPPart
    private let agent: AgentPart?
    private let lock = NSLock()
    private var started: [any ServerPart] = []

    public init(_ configuration: ServerConfiguration) {
        self.configuration = configuration
        let database = DatabasePart(configuration.database, state: configuration.state, log: configuration.log)
        var parts: [any ServerPart] = [database]
        var agent: AgentPart?
        if let sharing = configuration.sharing {
            if let proxy = sharing.services.browserProxy { parts.append(ProxyPart(proxy)) }
            parts += sharing.parts
            if let make = sharing.agent {
                // The agent is built over the stores the database opened (with PostgreSQL, the
                // follows and the catalog the routes use); the database starts before the agent.
                agent = AgentPart(make: { stop in
                    let handles = try? database.handles
                    return make(stop, AgentStores(catalog: handles?.catalog, follows: handles?.follows))
                }, log: configuration.log)
                parts.append(agent!)
            }
        }
        let reports = LateReports()
        let http = HTTPPart { [configuration] in
            let handles = try database.handles
            var backend = configuration.backend
            backend.sharedRateLimits = handles.rateLimits
            backend.share = configuration.sharing.map {
                var services = $0.services
                services.credentials = handles.credentials
                services.follows = handles.follows
                services.catalog = handles.catalog
                if let cookies = handles.cookies { services.cookies = cookies }
                if let media = $0.media { services.media = media(handles.catalog) }
                return services
            }
            backend.parts = { reports.get() }
            return try Backend(store: handles.store, configuration: backend)
        }
        parts.append(http)
        self.database = database
        self.http = http
        self.agent = agent
        self.parts = parts
        reports.set { [weak self] in self?.health() ?? [] }
    }

    /// Starts every part in order. When one cannot start, those already started are stopped
    /// (in reverse order) and its error thrown.
    public func start() throws {
        try configuration.state.ensure()
        for part in parts {
            do {
                try part.start()
            } catch {
                // The parts already running stop as at any stop (the agent at a safe point),
                // not cut: a port already in use is no reason to lose a download.
                _ = stop()
                throw error
            }
            lock.withLock { started.append(part) }
        }
    }

    /// Each part's health, in start order.
    public func health() -> [PartReport] {
        parts.map { part in
            let health = part.health()
            return PartReport(name: part.name, healthy: health.healthy, detail: health.detail)
        }
    }

    /// The HTTP listener (nil before `start` and after `stop`).
    public var backend: Backend? { http.running }

    /// Who may share, in the server's database (nil before `start` and after `stop`).
    public var credentials: (any CredentialStore)? { try? database.handles.credentials }

    /// True while the agent's thread works the journal (from `start` until it has returned).
    public var agentIsRunning: Bool { agent?.isRunning ?? false }

    /// Stops the started parts in reverse order; the listener and the agent are given `grace`
    /// seconds (from the start of the stop), the rest end at once. Safe to call twice.
    @discardableResult
    public func stop(grace: TimeInterval? = nil) -> StopReport {
        let deadline = Date().addingTimeInterval(grace ?? configuration.grace)
        let stopping = lock.withLock { () -> [any ServerPart] in
            defer { started = [] }
            return started
        }
        var report = StopReport()
        for part in stopping.reversed() {
            let began = Date()
            part.stop(deadline: deadline)
            report.parts.append((part.name, Date().timeIntervalSince(began)))
        }
        report.answeredRetry = http.answeredRetry
        return report
    }
}

/// The health reports `/healthz` asks for, set once the server that owns the parts exists.
///
/// `@unchecked Sendable`: `source` is only touched while holding `lock`.
final class LateReports: @unchecked Sendable {
    private let lock = NSLock()
    private var source: (@Sendable () -> [PartReport])?

    func set(_ source: @escaping @Sendable () -> [PartReport]) { lock.withLock { self.source = source } }
    func get() -> [PartReport] { lock.withLock { source }?() ?? [] }
}
