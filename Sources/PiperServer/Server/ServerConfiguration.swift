import Foundation
import MediaImport
import PiperCore

/// Where a server keeps its saves, who may share, the share ledger and (with PostgreSQL) the
/// rate limits: one handle for the server's life.
public enum ServerDatabase: Sendable, Equatable {
    /// A SQLite file (`--db`, else the state folder's `piper-serve.sqlite`).
    case sqlite(path: String)
    /// The process's one PostgreSQL pool (`--postgres`, `--postgres-pool`).
    case postgres(url: String, connections: Int)
}

/// Everything `ServerApp` is built from: plain values the CLI parses, plus the parts it
/// builds from adapters PiperServer does not import (the page loaders, the browser).
public struct ServerConfiguration: Sendable {
    /// The HTTP listener, saves, rate limits and routes (its `share` is filled from `sharing`).
    public var backend: BackendConfiguration
    public var database: ServerDatabase
    public var state: StateFolder
    /// How long a stop lets requests and shares under way finish before it answers them 503
    /// with `Retry-After` (`piper serve --grace`), and how long it waits for the agent.
    public var grace: TimeInterval = ServerApp.defaultGrace
    /// Sharing (`POST /share`, the web app, the library, the agent); nil leaves it off.
    public var sharing: ServerSharing?
    /// Where the parts say what went wrong on their own threads (the agent stopping).
    public var log: @Sendable (String) -> Void = { RequestLog.standardError.write($0) }

    public init(backend: BackendConfiguration = BackendConfiguration(), database: ServerDatabase, state: StateFolder) {
        self.backend = backend
        self.database = database
        self.state = state
    }
}

/// What sharing runs on: the share services (their credentials are the server's database's),
/// the parts built outside PiperServer in their start order (the browser), and the agent.
public struct ServerSharing: Sendable {
    public var services: ShareServices
    /// Started after the database and the browser's proxy, stopped before them.
    public var parts: [any ServerPart]
    /// Builds the agent that works the download journal inside the server, told to stop
    /// through the given `AgentStop`; nil: no agent runs here.
    package var agent: (@Sendable (AgentStop, AgentStores) -> Agent)?
    /// Builds the share's media queue over the library's catalog (the server's store's with
    /// PostgreSQL); nil keeps `services.media` as it is.
    public var media: (@Sendable ((any CatalogStore & Sendable)?) -> any MediaQueue)?

    package init(services: ShareServices, parts: [any ServerPart] = [], agent: (@Sendable (AgentStop, AgentStores) -> Agent)? = nil) {
        self.services = services
        self.parts = parts
        self.agent = agent
    }
}

/// The stores of the server's database the agent works with: with PostgreSQL, the library's
/// catalog and the follows every server shares (nil: the state folder's `library.sqlite` and
/// download journal).
package struct AgentStores: Sendable {
    package let catalog: (any CatalogStore & Sendable)?
    package let follows: (any FollowStore & Sendable)?

    package init(catalog: (any CatalogStore & Sendable)? = nil, follows: (any FollowStore & Sendable)? = nil) {
        self.catalog = catalog
        self.follows = follows
    }
}
