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

    /// Migration 7: scopes. A device's and a pending pairing's scope (`DeviceScope`); the
    /// tokens there were share-only from now on, the browsers the owner's (they were paired by
    /// the one who runs `piper pair`). A device named a name Piper reserves is renamed
    /// (`DeviceNames.renames`). Self-contained: it touches only `devices` and `pairings`.
    static let scopesMigration = Migration { db in
        try db.execute("""
            ALTER TABLE devices ADD COLUMN scope TEXT NOT NULL DEFAULT 'owner';
            UPDATE devices SET scope = 'share' WHERE kind = 'token';
            ALTER TABLE pairings ADD COLUMN scope TEXT NOT NULL DEFAULT 'owner';
            """)
        let names = try db.query("SELECT id, name FROM devices ORDER BY created, rowid") { (id: $0.text(0), name: $0.text(1)) }
        for renamed in DeviceNames.renames(of: names) {
            _ = try db.run("UPDATE devices SET name = ? WHERE id = ?", [.text(renamed.name), .text(renamed.id)])
        }
    }

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

    static let columns = "id, name, kind, created, secret_hash, last_used, last_address, scope"

    static func device(_ row: Row) -> Device {
        Device(id: row.text(0), name: row.text(1), kind: row.text(2), scope: DeviceScope(rawValue: row.text(7)) ?? .share,
               created: Date(timeIntervalSince1970: Double(row.int64(3))),
               secretHash: row.text(4), lastUsed: row.isNull(5) ? nil : Date(timeIntervalSince1970: Double(row.int64(5))),
               lastAddress: row.optionalText(6))
    }

    public func addPairing(codeHash: String, expires: Date, scope: DeviceScope, now: Date) throws {
        try run { db in
            try db.write { db in
                _ = try db.run("DELETE FROM pairings WHERE expires <= ?", [.int(now.credentialSeconds)])
                _ = try db.run("INSERT OR REPLACE INTO pairings (code_hash, expires, scope) VALUES (?, ?, ?)",
                               [.text(codeHash), .int(expires.credentialSeconds), .text(scope.rawValue)])
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
                var added = device
                if let pairing {
                    let scope = try db.query("SELECT scope FROM pairings WHERE code_hash = ?", [.text(pairing)]) { $0.text(0) }.first
                    guard let scope, try db.run("DELETE FROM pairings WHERE code_hash = ?", [.text(pairing)]) == 1 else { return nil }
                    added.scope = DeviceScope(rawValue: scope) ?? .share
                }
                added.name = DeviceNames.unique(device.name, among: try db.query("SELECT name FROM devices") { $0.text(0) })
                _ = try db.run("INSERT INTO devices (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", Self.values(added))
                return added
            }
        }
    }

    static func values(_ device: Device) -> [SQLValue] {
        [.text(device.id), .text(device.name), .text(device.kind), .int(device.created.credentialSeconds), .text(device.secretHash),
         device.lastUsed.map { .int($0.credentialSeconds) } ?? .null, device.lastAddress.map { .text($0) } ?? .null,
         .text(device.scope.rawValue)]
    }

    public func devices() throws -> [Device] {
        try run { db in try db.read { try $0.query("SELECT \(Self.columns) FROM devices ORDER BY created, rowid", [], Self.device) } }
    }

    public func device(secretHash: String) throws -> Device? {
        try run { db in
            try db.read { try $0.query("SELECT \(Self.columns) FROM devices WHERE secret_hash = ?", [.text(secretHash)], Self.device).first }
        }
    }

    public func removeDevice(id: String) throws -> Device? {
        try run { db in
            try db.write { db in
                let found = try db.query("SELECT \(Self.columns) FROM devices WHERE id = ?", [.text(id)], Self.device).first
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
                var names = try db.query("SELECT name FROM devices") { $0.text(0) }
                for var device in devices {
                    // Kept by id (an import repeated adds nothing); a name already taken, or
                    // Piper's own, gets another (`DeviceNames.importedName`) rather than the device being dropped.
                    guard try db.query("SELECT 1 FROM devices WHERE id = ?", [.text(device.id)]) { $0.int(0) }.isEmpty else { continue }
                    device.name = DeviceNames.importedName(device.name, among: names)
                    names.append(device.name)
                    added += try db.run("INSERT OR IGNORE INTO devices (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", Self.values(device))
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
