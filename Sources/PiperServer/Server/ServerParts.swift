import Foundation
import MediaImport
import PiperCore

/// The server's database: the saves' store, who may share (and the share ledger), and with
/// PostgreSQL the shared rate limits, over one handle. Opened by `start`, let go by `stop`
/// (the SQLite writer flushes and the PostgreSQL pool closes its connections as they go).
///
/// `@unchecked Sendable`: the handles are set by `start` and cleared by `stop`, under `lock`.
final class DatabasePart: ServerPart, @unchecked Sendable {
    let name = "database"
    let database: ServerDatabase
    private let lock = NSLock()
    private var opened: DatabaseHandles?

    let state: StateFolder
    let log: @Sendable (String) -> Void

    init(_ database: ServerDatabase, state: StateFolder, log: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.state = state
        self.log = log
    }

    func start() throws {
        let store: any Store, credentials: any CredentialStore, rateLimits: PostgresRateLimits?
        var follows: (any FollowStore & Sendable)?, catalog: PostgresCatalog?
        switch database {
        case .postgres(let url, let connections):
            // One handle for every PostgreSQL store: one pool, one migration at start.
            let postgres = try PostgresDatabase(url: url, connections: connections)
            store = PostgresStore(database: postgres)
            credentials = PostgresCredentials(database: postgres)
            rateLimits = PostgresRateLimits(database: postgres)
            follows = PostgresFollows(database: postgres)
            let shared = PostgresCatalog(database: postgres)
            adoptLibrary(shared)
            catalog = shared
        case .sqlite(let path):
            do {
                store = try SQLiteStore(path: path)
                credentials = try SQLiteCredentials(path: path)
            } catch {
                throw DatabaseOpenError(path: path, reason: "\(error)")
            }
            rateLimits = nil
        }
        let cookies = catalog.map { _ in StoreCookieStore(secrets: credentials) }
        lock.withLock {
            opened = DatabaseHandles(store: store, credentials: credentials, rateLimits: rateLimits, follows: follows, catalog: catalog, cookies: cookies)
        }
    }

    /// With PostgreSQL, the state folder's former `library.sqlite` moves into the store's
    /// catalog on the first start (`LibraryAdoption`); a failure (the shared folder not mounted)
    /// is said and the file kept for the next start.
    private func adoptLibrary(_ catalog: PostgresCatalog) {
        do {
            let adopted = try LibraryAdoption.adopt(state, into: catalog)
            if adopted > 0 { log("Moved \(adopted) item\(adopted == 1 ? "" : "s") of library.sqlite into the store's catalog") }
        } catch {
            log("Warning: library.sqlite was not moved into the store's catalog (\(error)); the server tries again at its next start")
        }
    }

    /// The open handles (the server is started).
    var handles: DatabaseHandles {
        get throws {
            guard let opened = lock.withLock({ opened }) else { throw StoreError(.unavailable, "The database is closed") }
            return opened
        }
    }

    func health() -> PartHealth {
        guard let store = lock.withLock({ opened?.store }) else { return .failing("closed") }
        do {
            try store.checkHealth()
            return .ok(store.kind)
        } catch {
            return .failing("\(store.kind): \(error)")
        }
    }

    func stop(deadline: Date) {
        lock.withLock { opened = nil }
    }
}

/// What the server's database holds, opened once for the server's life.
struct DatabaseHandles: Sendable {
    let store: any Store
    let credentials: any CredentialStore
    /// With PostgreSQL: the rate limits every server shares (nil: each server's own).
    let rateLimits: PostgresRateLimits?
    /// With PostgreSQL: the follows every server shares, refreshed by one at a time (nil: the
    /// state folder's download journal).
    let follows: (any FollowStore & Sendable)?
    /// With PostgreSQL: the library's catalog, for the one library folder every server mounts
    /// (nil: the state folder's `library.sqlite`).
    let catalog: PostgresCatalog?
    /// With PostgreSQL: the X login among the store's secrets, which every server reads at each
    /// share (nil: the state folder's cookie file).
    let cookies: StoreCookieStore?
}

/// The proxy every connection of the server's browser goes through (`GuardedProxy`, listening
/// from the moment it is built).
final class ProxyPart: ServerPart, Sendable {
    let name = "proxy"
    let proxy: GuardedProxy

    init(_ proxy: GuardedProxy) { self.proxy = proxy }

    func start() throws {}
    func health() -> PartHealth { .ok("127.0.0.1:\(proxy.port)") }
    func stop(deadline: Date) { proxy.stop() }
}

/// The download agent working the journal on a thread of its own for as long as the server
/// runs. `stop` asks it to stop at a safe point (`AgentStop`: between passes, never in an
/// import; a download under way keeps its partial file for the next agent) and waits for its
/// thread to end, until the deadline.
///
/// `@unchecked Sendable`: `status`, `started` and `ended` are only touched while holding `lock`.
final class AgentPart: ServerPart, @unchecked Sendable {
    let name = "agent"
    private let make: @Sendable (AgentStop) -> Agent
    private let log: @Sendable (String) -> Void
    private let stopping = AgentStop()
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var status = PartHealth.failing("not started")
    private var started = false
    private var ended = false

    init(make: @escaping @Sendable (AgentStop) -> Agent, log: @escaping @Sendable (String) -> Void) {
        self.make = make
        self.log = log
    }

    func start() throws {
        lock.withLock {
            status = .ok("working the journal")
            started = true
        }
        let thread = Thread { [self] in
            defer {
                lock.withLock { ended = true }
                finished.signal()
            }
            let agent = make(stopping)
            do {
                if case .alreadyRunning = try agent.run(once: false) {
                    log("Another agent already works this state folder; it downloads what is shared here.")
                    set(.ok("another agent works this state folder"))
                } else {
                    set(stopping.isRequested ? .ok("stopped") : .failing("stopped"))
                }
            } catch {
                log("The download agent stopped: \(error)")
                set(.failing("stopped: \(error)"))
            }
        }
        thread.name = "piper-agent"
        thread.start()
    }

    private func set(_ health: PartHealth) { lock.withLock { status = health } }

    /// True from `start` until the agent's thread has returned.
    var isRunning: Bool { lock.withLock { started && !ended } }

    func health() -> PartHealth { lock.withLock { status } }

    func stop(deadline: Date) {
        stopping.request()
        guard lock.withLock({ started }) else { return }
        if finished.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .timedOut {
            log("The download agent did not stop in time; an interrupted download resumes at the next start.")
        }
    }
}

/// The HTTP listener with its routes (`Backend`), over the database part's handles. `stop`
/// closes the listening socket, lets requests under way finish until the deadline and answers
/// the rest 503 with `Retry-After`.
///
/// `@unchecked Sendable`: `backend` and `answeredRetry` are only touched while holding `lock`.
final class HTTPPart: ServerPart, @unchecked Sendable {
    let name = "http"
    private let build: @Sendable () throws -> Backend
    private let lock = NSLock()
    private var backend: Backend?
    private(set) var answeredRetry = 0

    init(build: @escaping @Sendable () throws -> Backend) { self.build = build }

    func start() throws {
        let started = try build()
        lock.withLock { backend = started }
    }

    var running: Backend? { lock.withLock { backend } }

    func health() -> PartHealth {
        guard let backend = running else { return .failing("stopped") }
        return .ok("listening on \(backend.baseURL)")
    }

    func stop(deadline: Date) {
        guard let backend = lock.withLock({ () -> Backend? in defer { backend = nil }; return backend }) else { return }
        let refused = backend.stop(grace: max(0, deadline.timeIntervalSinceNow))
        lock.withLock { answeredRetry = refused }
    }
}

/// The SQLite file for `piper serve` could not be opened: say which and what to do.
public struct DatabaseOpenError: PiperError {
    public let path: String
    public let reason: String
    public var description: String {
        "Cannot open the database \(path) (\(reason)). Check that its folder exists and is writable, or pass --db another path."
    }
    public var category: ErrorCategory { .other }
}
