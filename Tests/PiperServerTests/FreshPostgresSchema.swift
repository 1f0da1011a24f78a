import Foundation
import PiperTestSupport
@testable import PiperServer

/// A schema of its own in the test database, so a test's tables, version table and migrations
/// meet no other test's: `url` connects with the schema alone on the search path (libpq's
/// `options=-csearch_path=…`), for a `PostgresDatabase` in the test or a `piper serve --postgres`.
/// `drop()` removes it and everything in it.
struct FreshPostgresSchema {
    let name: String
    let url: String
    private let base: String

    init() throws {
        base = try PostgresTestDatabase.url()
        name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: base).execute("CREATE SCHEMA \(name)")
        url = Self.url(base, searchPath: name)
    }

    /// `base` with `schema` as its search path: a URI gains a query parameter, a conninfo string
    /// a keyword.
    static func url(_ base: String, searchPath schema: String) -> String {
        if base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") {
            return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
        }
        return base + " options='-csearch_path=\(schema)'"
    }

    /// `url` with an application name, which `pg_stat_activity` shows for each connection.
    func url(applicationName name: String) -> String {
        url.hasPrefix("postgres") && url.contains("://") ? url + "&application_name=" + name : url + " application_name=" + name
    }

    /// A connection of its own on the schema (for setting up and checking tables directly).
    func connect() throws -> PostgresConnection { try PostgresConnection(url: url) }

    /// A handle on the schema, migrated, as `piper serve` opens one.
    func open(connections: Int = PostgresDatabase.defaultConnections) throws -> PostgresDatabase {
        try PostgresDatabase(url: url, connections: connections)
    }

    func drop() {
        guard let conn = try? PostgresConnection(url: base) else { return }
        _ = try? conn.execute("SET client_min_messages = warning")   // "drop cascades to …"
        _ = try? conn.execute("DROP SCHEMA \(name) CASCADE")
    }
}
