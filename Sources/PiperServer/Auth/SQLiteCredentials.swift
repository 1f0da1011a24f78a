import Foundation
import PiperSQLite

/// The credentials in the server's SQLite file (the `devices` and `pairings` tables of
/// `SQLiteStore`'s schema), through a `DatabaseQueue` of their own: `piper pair` and
/// `piper devices` open the same file, and SQLite's locks order their writes with the server's.
public final class SQLiteCredentials: CredentialStore {
    static let schema = """
        CREATE TABLE devices (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            created INTEGER NOT NULL,
            secret_hash TEXT NOT NULL UNIQUE,
            last_used INTEGER,
            last_address TEXT
        );
        CREATE TABLE pairings (
            code_hash TEXT PRIMARY KEY NOT NULL,
            expires INTEGER NOT NULL
        );
        CREATE TABLE server_secrets (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """

    public let path: String
    private let database: DatabaseQueue

    /// Opens (creating and migrating with `SQLiteStore`'s schema) the database at `path`.
    public init(path: String) throws {
        self.path = path
        do {
            database = try DatabaseQueue(path: path, migrations: SQLiteStore.migrations)
        } catch let error as SQLiteError {
            throw StoreError(.unavailable, "Cannot open the database \(path): \(error.description)")
        }
    }

    public var kind: String { "sqlite" }

    static let columns = "id, name, kind, created, secret_hash, last_used, last_address"

    static func device(_ row: Row) -> Device {
        Device(id: row.text(0), name: row.text(1), kind: row.text(2), created: Date(timeIntervalSince1970: Double(row.int64(3))),
               secretHash: row.text(4), lastUsed: row.isNull(5) ? nil : Date(timeIntervalSince1970: Double(row.int64(5))),
               lastAddress: row.optionalText(6))
    }

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

    public func addPairing(codeHash: String, expires: Date, now: Date) throws {
        try run { db in
            try db.write { db in
                _ = try db.run("DELETE FROM pairings WHERE expires <= ?", [.int(now.credentialSeconds)])
                _ = try db.run("INSERT OR REPLACE INTO pairings (code_hash, expires) VALUES (?, ?)",
                               [.text(codeHash), .int(expires.credentialSeconds)])
            }
        }
    }

    public func pairingIsPending(codeHash: String, now: Date) throws -> Bool {
        try run { db in
            try db.read { try $0.query("SELECT 1 FROM pairings WHERE code_hash = ? AND expires > ?",
                                       [.text(codeHash), .int(now.credentialSeconds)]) { $0.int(0) }.isEmpty == false }
        }
    }

    public func addDevice(_ device: Device, redeeming pairing: String?, now: Date) throws -> Device? {
        try run { db in
            try db.write { db in
                _ = try db.run("DELETE FROM pairings WHERE expires <= ?", [.int(now.credentialSeconds)])
                if let pairing, try db.run("DELETE FROM pairings WHERE code_hash = ?", [.text(pairing)]) == 0 { return nil }
                let names = try db.query("SELECT name FROM devices") { $0.text(0) }
                var added = device
                added.name = DeviceRegistry.uniqueName(device.name, among: Set(names))
                _ = try db.run("INSERT INTO devices (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)", Self.values(added))
                return added
            }
        }
    }

    static func values(_ device: Device) -> [SQLValue] {
        [.text(device.id), .text(device.name), .text(device.kind), .int(device.created.credentialSeconds), .text(device.secretHash),
         device.lastUsed.map { .int($0.credentialSeconds) } ?? .null, device.lastAddress.map { .text($0) } ?? .null]
    }

    public func devices() throws -> [Device] {
        try run { db in try db.read { try $0.query("SELECT \(Self.columns) FROM devices ORDER BY created, rowid", [], Self.device) } }
    }

    public func device(secretHash: String) throws -> Device? {
        try run { db in
            try db.read { try $0.query("SELECT \(Self.columns) FROM devices WHERE secret_hash = ?", [.text(secretHash)], Self.device).first }
        }
    }

    public func removeDevice(idOrName: String) throws -> Device? {
        try run { db in
            try db.write { db in
                let found = try db.query("SELECT \(Self.columns) FROM devices WHERE id = ? OR name = ? ORDER BY id = ? DESC LIMIT 1",
                                         [.text(idOrName), .text(idOrName), .text(idOrName)], Self.device).first
                guard let found else { return nil }
                _ = try db.run("DELETE FROM devices WHERE id = ?", [.text(found.id)])
                return found
            }
        }
    }

    public func noteUse(deviceID: String, at: Date, address: String) throws {
        try run { db in
            try db.write { _ = try $0.run("UPDATE devices SET last_used = ?, last_address = ? WHERE id = ?",
                                          [.int(at.credentialSeconds), .text(address), .text(deviceID)]) }
        }
    }

    public func importRecords(devices: [Device], pairings: [(codeHash: String, expires: Date)]) throws -> Int {
        try run { db in
            try db.write { db in
                var added = 0
                for device in devices {
                    added += try db.run("INSERT OR IGNORE INTO devices (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)", Self.values(device))
                }
                for pairing in pairings {
                    _ = try db.run("INSERT OR IGNORE INTO pairings (code_hash, expires) VALUES (?, ?)",
                                   [.text(pairing.codeHash), .int(pairing.expires.credentialSeconds)])
                }
                return added
            }
        }
    }

    func run<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        do {
            return try body(database)
        } catch let error as SQLiteError {
            throw StoreError(.failed, "SQLite credentials failed: \(error.description)")
        }
    }
}
