import Foundation
import PiperSystem

/// The credentials in PostgreSQL (`--postgres`): every `piper serve` on the database, and
/// `piper pair`/`piper devices --postgres` beside them, read and change the same two tables,
/// `<prefix>_devices` and `<prefix>_pairings`, and the share ledger's `<prefix>_shares` and
/// `<prefix>_share_keys`.
public final class PostgresCredentials: CredentialStore {
    private let pool: ConnectionPool<PostgresConnection>
    private let devicesTable: String
    private let pairingsTable: String
    private let secretsTable: String
    let sharesTable: String
    let keysTable: String

    /// Connects to `url` and creates the tables if needed. `prefix` must be a plain identifier
    /// (tests use one each).
    public init(url: String, prefix: String = "piper", connections: Int = 4) throws {
        guard PostgresStore.isPlainIdentifier(prefix + "_pairings") else {
            throw StoreError(.failed, "The PostgreSQL table prefix must be a plain identifier")
        }
        devicesTable = prefix + "_devices"
        pairingsTable = prefix + "_pairings"
        secretsTable = prefix + "_secrets"
        sharesTable = prefix + "_shares"
        keysTable = prefix + "_share_keys"
        pool = ConnectionPool(limit: connections) { try PostgresConnection(url: url) }
        try run("setup") { conn in
            // "relation already exists, skipping" is no news to piper devices' user.
            try conn.execute("SET client_min_messages = warning")
            try conn.execute("SELECT pg_advisory_lock(7061706572)")
            defer { _ = try? conn.execute("SELECT pg_advisory_unlock(7061706572)") }
            try conn.execute("""
                CREATE TABLE IF NOT EXISTS \(devicesTable) (
                    id text PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    kind text NOT NULL,
                    created bigint NOT NULL,
                    secret_hash text NOT NULL UNIQUE,
                    last_used bigint,
                    last_address text,
                    seq bigserial
                )
                """)
            try conn.execute("CREATE TABLE IF NOT EXISTS \(pairingsTable) (code_hash text PRIMARY KEY, expires bigint NOT NULL)")
            try addScopes(conn)
            try conn.execute("CREATE TABLE IF NOT EXISTS \(secretsTable) (name text PRIMARY KEY, value text NOT NULL)")
            try conn.execute("""
                CREATE TABLE IF NOT EXISTS \(sharesTable) (
                    seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, followed boolean NOT NULL, record text NOT NULL
                )
                """)
            try conn.execute("CREATE INDEX IF NOT EXISTS \(sharesTable)_followed ON \(sharesTable) (seq) WHERE followed")
            try conn.execute("""
                CREATE TABLE IF NOT EXISTS \(keysTable) (
                    key text NOT NULL, device text NOT NULL, fingerprint text NOT NULL, records text, created bigint NOT NULL,
                    PRIMARY KEY (key, device)
                )
                """)
            // A claim belongs to a living run (`SQLiteCredentials.shareLeasesSchema`).
            try conn.execute("""
                ALTER TABLE \(keysTable) ADD COLUMN IF NOT EXISTS owner text, ADD COLUMN IF NOT EXISTS lease bigint,
                    ADD COLUMN IF NOT EXISTS done text
                """)
            try conn.execute("CREATE INDEX IF NOT EXISTS \(keysTable)_owner ON \(keysTable) (owner) WHERE owner IS NOT NULL")
        }
    }

    public var kind: String { "postgres" }

    /// What `SQLiteCredentials.scopesMigration` does, idempotent (under the setup's advisory
    /// lock): the scope columns, tokens share-only (every token is), reserved names renamed.
    private func addScopes(_ conn: PostgresConnection) throws {
        try conn.execute("ALTER TABLE \(devicesTable) ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner'")
        try conn.execute("UPDATE \(devicesTable) SET scope = 'share' WHERE kind = 'token' AND scope <> 'share'")
        try conn.execute("ALTER TABLE \(pairingsTable) ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner'")
        let rows = try conn.execute("SELECT id, name FROM \(devicesTable) ORDER BY created, seq")
        let names = (0..<rows.rowCount).map { (id: rows.text($0, 0) ?? "", name: rows.text($0, 1) ?? "") }
        for renamed in DeviceNames.renames(of: names) {
            try conn.execute("UPDATE \(devicesTable) SET name = $1 WHERE id = $2", [renamed.name, renamed.id])
        }
    }

    static let columns = "id, name, kind, created, secret_hash, last_used, last_address, scope"

    static func devices(_ result: PostgresResult) -> [Device] {
        (0..<result.rowCount).map { row in
            Device(id: result.text(row, 0) ?? "", name: result.text(row, 1) ?? "", kind: result.text(row, 2) ?? "",
                   scope: result.text(row, 7).flatMap(DeviceScope.init(rawValue:)) ?? .share,
                   created: Date(timeIntervalSince1970: Double(result.text(row, 3) ?? "") ?? 0),
                   secretHash: result.text(row, 4) ?? "",
                   lastUsed: result.text(row, 5).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)),
                   lastAddress: result.text(row, 6))
        }
    }

    static func values(_ device: Device) -> [String?] {
        [device.id, device.name, device.kind, String(device.created.credentialSeconds), device.secretHash,
         device.lastUsed.map { String($0.credentialSeconds) }, device.lastAddress, device.scope.rawValue]
    }

    public func secret(named name: String, proposing proposed: String) throws -> String {
        try run("secret") { conn in
            try conn.execute("INSERT INTO \(secretsTable) (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", [name, proposed])
            return try conn.execute("SELECT value FROM \(secretsTable) WHERE name = $1", [name]).text(0, 0) ?? proposed
        }
    }

    public func storedSecret(named name: String) throws -> String? {
        try run("read") { conn in try conn.execute("SELECT value FROM \(secretsTable) WHERE name = $1", [name]).text(0, 0) }
    }

    public func replaceSecret(named name: String, with value: String) throws {
        try run("secret") { conn in
            try conn.execute("INSERT INTO \(secretsTable) (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = $2",
                             [name, value])
        }
    }

    public func addPairing(codeHash: String, expires: Date, scope: DeviceScope, now: Date) throws {
        try transaction("pairing") { conn in
            try conn.execute("DELETE FROM \(pairingsTable) WHERE expires <= $1", [String(now.credentialSeconds)])
            try conn.execute("""
                INSERT INTO \(pairingsTable) (code_hash, expires, scope) VALUES ($1, $2, $3)
                ON CONFLICT (code_hash) DO UPDATE SET expires = $2, scope = $3
                """, [codeHash, String(expires.credentialSeconds), scope.rawValue])
        }
    }

    public func pairingIsPending(codeHash: String, now: Date) throws -> Bool {
        try run("read") { conn in
            try conn.execute("SELECT 1 FROM \(pairingsTable) WHERE code_hash = $1 AND expires > $2",
                             [codeHash, String(now.credentialSeconds)]).rowCount > 0
        }
    }

    public func addDevice(_ device: Device, redeeming pairing: String?, now: Date) throws -> Device? {
        try transaction("pairing") { conn in
            // One device added at a time across servers, so two of one name become "name" and "name 2".
            try conn.execute("SELECT pg_advisory_xact_lock(7061706573)")
            try conn.execute("DELETE FROM \(pairingsTable) WHERE expires <= $1", [String(now.credentialSeconds)])
            var added = device
            if let pairing {
                let used = try conn.execute("DELETE FROM \(pairingsTable) WHERE code_hash = $1 RETURNING scope", [pairing])
                guard used.rowCount == 1 else { return nil }
                added.scope = used.text(0, 0).flatMap(DeviceScope.init(rawValue:)) ?? .share
            }
            let names = try conn.execute("SELECT name FROM \(devicesTable)")
            added.name = DeviceNames.unique(device.name, among: (0..<names.rowCount).compactMap { names.text($0, 0) })
            try conn.execute("INSERT INTO \(devicesTable) (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", Self.values(added))
            return added
        }
    }

    public func devices() throws -> [Device] {
        try run("read") { conn in Self.devices(try conn.execute("SELECT \(Self.columns) FROM \(devicesTable) ORDER BY created, seq")) }
    }

    public func device(secretHash: String) throws -> Device? {
        try run("read") { conn in
            Self.devices(try conn.execute("SELECT \(Self.columns) FROM \(devicesTable) WHERE secret_hash = $1", [secretHash])).first
        }
    }

    public func removeDevice(id: String) throws -> Device? {
        try run("revoke") { conn in
            Self.devices(try conn.execute("DELETE FROM \(devicesTable) WHERE id = $1 RETURNING \(Self.columns)", [id])).first
        }
    }

    public func noteUse(deviceID: String, at: Date, address: String) throws {
        try run("update") { conn in
            try conn.execute("UPDATE \(devicesTable) SET last_used = $1, last_address = $2 WHERE id = $3",
                             [String(at.credentialSeconds), address, deviceID])
        }
    }

    public func importRecords(devices: [Device], pairings: [(codeHash: String, expires: Date)]) throws -> Int {
        try transaction("import") { conn in
            try conn.execute("SELECT pg_advisory_xact_lock(7061706573)")   // as addDevice: names decided one at a time
            var added = 0
            let rows = try conn.execute("SELECT name FROM \(devicesTable)")
            var names = (0..<rows.rowCount).compactMap { rows.text($0, 0) }
            for var device in devices {
                // Kept by id; a name taken or reserved gets another (as in SQLiteCredentials.importRecords).
                guard try conn.execute("SELECT 1 FROM \(devicesTable) WHERE id = $1", [device.id]).rowCount == 0 else { continue }
                device.name = DeviceNames.importedName(device.name, among: names)
                names.append(device.name)
                added += try conn.execute("INSERT INTO \(devicesTable) (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                                          Self.values(device)).affectedRows
            }
            for pairing in pairings {
                try conn.execute("INSERT INTO \(pairingsTable) (code_hash, expires) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                                 [pairing.codeHash, String(pairing.expires.credentialSeconds)])
            }
            return added
        }
    }

    /// Drops both tables (tests only).
    public func dropTables() throws {
        try run("drop") { conn in try conn.execute("DROP TABLE IF EXISTS \(devicesTable), \(pairingsTable), \(secretsTable), \(sharesTable), \(keysTable)") }
    }

    func transaction<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try run(what) { conn in
            try conn.execute("BEGIN")
            do {
                let result = try body(conn)
                try conn.execute("COMMIT")
                return result
            } catch {
                _ = try? conn.execute("ROLLBACK")
                throw error
            }
        }
    }

    func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try pool.with(discardOn: { ($0 as? PostgresError)?.connectionLost ?? true }, body)
        } catch let error as PostgresError {
            throw StoreError(error.connectionLost ? .unavailable : .failed, "PostgreSQL \(what) failed: \(error.description)")
        }
    }
}
