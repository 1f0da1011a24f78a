import Foundation
import PiperCore
import PiperServer

/// Where `piper serve`, `piper pair`, `piper devices` and `piper library feed` keep who may share: the store the
/// server keeps its saves in (`--db PATH`, else the state folder's `piper-serve.sqlite`; or
/// `--postgres URL`), so a pairing or a revocation made by one process is what every server on
/// that store accepts from its next request.
struct CredentialsChoice {
    let database: String?
    let postgres: String?
    /// The most connections the PostgreSQL handle opens (`piper serve --postgres-pool`).
    let postgresConnections: Int

    /// The two flags, one option each for every command that reaches the store.
    static func databaseOption() -> Option<String?> {
        Opt.text("--db", placeholder: "PATH", help: "The server's SQLite database (default: piper-serve.sqlite in the state folder).")
    }
    static func postgresOption() -> Option<String?> {
        Opt.text("--postgres", placeholder: "URL", help: "The server's PostgreSQL database.")
    }

    /// The flags as given; both at once is a usage error.
    init(database: String?, postgres: String?, postgresConnections: Int = PostgresDatabase.defaultConnections) throws {
        if database != nil && postgres != nil { throw UsageError("--db and --postgres cannot be used together") }
        self.database = database
        self.postgres = postgres
        self.postgresConnections = postgresConnections
    }

    /// The process's one PostgreSQL handle (its schema migrated), nil without `--postgres`.
    func openPostgres() throws -> PostgresDatabase? {
        try postgres.map { try PostgresDatabase(url: $0, connections: postgresConnections) }
    }

    /// The credentials, in `postgres` when given (the handle the caller's other stores use),
    /// else in a handle of their own or the SQLite file.
    func store(state: StateFolder, postgres: PostgresDatabase? = nil) throws -> any CredentialStore {
        if let database = try postgres ?? openPostgres() { return PostgresCredentials(database: database) }
        try state.ensure()
        return try SQLiteCredentials(path: database ?? state.serverDatabase.path)
    }

    /// The public URL `piper serve --public-url` recorded in this store, if any.
    func recordedPublicURL(state: StateFolder) -> String? {
        (try? store(state: state)).flatMap(ServerAddress.recorded)
    }

    /// Where a link for a phone starts: `--url` (given), else the backend the config names,
    /// else the public URL the server recorded in its store; nil when none says.
    func base(given: String?, config: Config, state: StateFolder) -> String? {
        given ?? (config.isBackendConfigured ? config.backendBaseURL.absoluteString : recordedPublicURL(state: state))
    }

    func registry(state: StateFolder) throws -> DeviceRegistry {
        try DeviceRegistry(state: state, credentials: store(state: state))
    }
}
