import Foundation

/// The server's named secrets in PostgreSQL: `piper_secrets`, one value per name for every
/// server on the database.
extension PostgresCredentials {
    public func secret(named name: String, proposing proposed: String) throws -> String {
        try run("secret") { conn in
            try conn.execute("INSERT INTO \(secretsTable) (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", [name, proposed])
            return try conn.execute("SELECT value FROM \(secretsTable) WHERE name = $1", [name]).onlyRow().text("value")
        }
    }

    public func storedSecret(named name: String) throws -> String? {
        try run("read") { conn in try conn.execute("SELECT value FROM \(secretsTable) WHERE name = $1", [name]).first?.text("value") }
    }

    public func replaceSecret(named name: String, with value: String) throws {
        try run("secret") { conn in
            try conn.execute("INSERT INTO \(secretsTable) (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = $2",
                             [name, value])
        }
    }
}
