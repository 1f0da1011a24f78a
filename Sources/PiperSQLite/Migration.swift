import Foundation

/// One step of a database's schema history: SQL, or Swift code for a step SQL cannot express.
/// A string literal is a SQL step, so a list of migrations reads as a list of SQL texts.
package struct Migration: Sendable, ExpressibleByStringLiteral {
    /// Applies the step to `db` (the runner calls it inside the step's transaction).
    package let apply: @Sendable (Database) throws -> Void

    /// A step that runs `sql` (one or more statements).
    package static func sql(_ sql: String) -> Migration {
        Migration { try $0.execute(sql) }
    }

    /// A step that runs `body` on the connection, inside the step's transaction.
    package init(_ body: @escaping @Sendable (Database) throws -> Void) {
        apply = body
    }

    package init(stringLiteral sql: String) {
        self = .sql(sql)
    }
}

extension Database {
    /// The one migration runner. `migrations` is the schema's whole history, oldest first;
    /// `PRAGMA user_version` counts the steps a database has applied. Each step not yet applied
    /// runs in its own `BEGIN IMMEDIATE` transaction that re-reads the version first, so two
    /// processes opening a fresh database at once apply each step exactly once, and a step that
    /// fails leaves the database at the previous version with nothing half-applied.
    ///
    /// Databases written before this runner existed need nothing special: the older runners kept
    /// the same count in the same place (the journal's applied all of its steps in one
    /// transaction and set the version to their number, which this runner reads alike).
    package func migrate(_ migrations: [Migration]) throws {
        guard userVersion < migrations.count else { return }
        for (index, migration) in migrations.enumerated() {
            try transaction {
                guard userVersion == index else { return }
                try migration.apply(self)
                try execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
