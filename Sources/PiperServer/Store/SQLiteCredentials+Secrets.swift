import Foundation

/// The server's named secrets in the SQLite file: `server_secrets`.
extension SQLiteCredentials {
    public func secret(named name: String, proposing proposed: String) throws -> String {
        try run { db in
            try db.write { db in
                _ = try db.run("INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)", [.text(name), .text(proposed)])
                return try db.query("SELECT value FROM server_secrets WHERE name = ?", [.text(name)]) { $0.text(0) }.first ?? proposed
            }
        }
    }

    public func storedSecret(named name: String) throws -> String? {
        try run { db in try db.read { try $0.query("SELECT value FROM server_secrets WHERE name = ?", [.text(name)]) { $0.text(0) }.first } }
    }

    public func replaceSecret(named name: String, with value: String) throws {
        try run { db in
            try db.write { _ = try $0.run("INSERT OR REPLACE INTO server_secrets (name, value) VALUES (?, ?)", [.text(name), .text(value)]) }
        }
    }
}
