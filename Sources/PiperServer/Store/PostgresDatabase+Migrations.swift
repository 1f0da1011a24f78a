import Foundation
import PiperCore

/// One step of the PostgreSQL schema's history: a name (kept in the version table, for people
/// reading it) and what it does on the migration's connection, inside the step's transaction.
struct PostgresMigration: Sendable {
    let name: String
    let apply: @Sendable (PostgresConnection) throws -> Void

    init(_ name: String, _ apply: @escaping @Sendable (PostgresConnection) throws -> Void) {
        self.name = name
        self.apply = apply
    }

    /// A step that runs `statements` in order (libpq runs one statement per call).
    static func sql(_ name: String, _ statements: [String]) -> PostgresMigration {
        PostgresMigration(name) { conn in for statement in statements { try conn.execute(statement) } }
    }
}

/// The database was migrated by a newer piper: this one does not know its tables' shape, so the
/// server refuses to start rather than read or write them.
public struct PostgresSchemaTooNew: PiperError, Equatable {
    public let found: Int
    public let known: Int
    public var description: String {
        "The PostgreSQL database is at schema version \(found), newer than this piper knows (\(known)). Upgrade piper, or point --postgres at another database."
    }
    public var category: ErrorCategory { .configuration }
}

extension PostgresDatabase {
    /// Where the applied steps are recorded: one row per step, `version` counting from 1.
    static let versionTable = "piper_schema_migrations"

    /// The advisory lock every migration step holds: the number the stores' setup took before
    /// the schema had a history, so a server of that build starting beside a newer one waits for
    /// the other's step rather than racing its DDL.
    static let migrationLock: Int64 = 7_061_706_572

    /// The schema version: the highest step recorded, 0 for a database with no version table
    /// (empty, or made before the history, whose tables step 1 onwards adopt).
    static func version(_ conn: PostgresConnection) throws -> Int {
        guard try conn.execute("SELECT to_regclass($1) IS NOT NULL AS present", [versionTable]).first?.bool("present") == true else { return 0 }
        let row = try conn.execute("SELECT COALESCE(max(version), 0) AS version FROM \(versionTable)").first
        return Int(try row?.int64("version") ?? 0)
    }

    /// The one migration runner. `migrations` is the schema's whole history, oldest first. A
    /// database that has every step is only read (no lock, no DDL). Otherwise each step runs in
    /// its own transaction that takes the advisory lock and re-reads the version first, so
    /// several servers starting at once apply each step exactly once, and a step that fails
    /// leaves the database at the previous version with nothing half-applied. Notices
    /// ("relation ... already exists, skipping", from steps that adopt tables made before the
    /// history) are not sent to this connection.
    static func migrate(_ conn: PostgresConnection, to migrations: [PostgresMigration]) throws {
        let current = try version(conn)
        guard current != migrations.count else { return }
        if current > migrations.count { throw PostgresSchemaTooNew(found: current, known: migrations.count) }
        for (index, migration) in migrations.enumerated() where index >= current {
            try inTransaction(conn) {
                try conn.execute("SET LOCAL client_min_messages = warning")
                try conn.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
                try conn.execute("""
                    CREATE TABLE IF NOT EXISTS \(versionTable) (
                        version integer PRIMARY KEY,
                        name text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
                let applied = try version(conn)
                if applied > migrations.count { throw PostgresSchemaTooNew(found: applied, known: migrations.count) }
                guard applied == index else { return }
                try migration.apply(conn)
                try conn.execute("INSERT INTO \(versionTable) (version, name) VALUES ($1, $2)", [String(index + 1), migration.name])
            }
        }
    }
}
