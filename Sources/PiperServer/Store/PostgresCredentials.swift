import Foundation

/// The credentials in PostgreSQL (`--postgres`): every `piper serve` on the database, and
/// `piper pair`/`piper devices --postgres` beside them, read and change the same tables,
/// `piper_devices` and `piper_pairings`, the server secrets' `piper_secrets`, and the share
/// ledger's `piper_shares` and `piper_share_keys` (`PostgresDatabase+Schema`), through the
/// process's one `PostgresDatabase`.
public final class PostgresCredentials: CredentialStore {
    let database: PostgresDatabase
    private let devicesTable = "piper_devices"
    private let pairingsTable = "piper_pairings"
    let secretsTable = "piper_secrets"
    let sharesTable = "piper_shares"
    let keysTable = "piper_share_keys"

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public var kind: String { "postgres" }

    static let columns = "id, name, kind, created, secret_hash, last_used, last_address, scope"

    static func devices(_ result: PostgresResult) throws -> [Device] {
        try result.rows.map { row in
            Device(id: try row.text("id"), name: try row.text("name"), kind: try row.text("kind"),
                   scope: try scope(row.text("scope")),
                   created: Date(timeIntervalSince1970: Double(try row.int64("created"))),
                   secretHash: try row.text("secret_hash"),
                   lastUsed: try row.optionalInt64("last_used").map { Date(timeIntervalSince1970: Double($0)) },
                   lastAddress: try row.optionalText("last_address"))
        }
    }

    /// A stored scope; one this build does not know is a malformed row, not a guess.
    static func scope(_ text: String) throws -> DeviceScope {
        guard let scope = DeviceScope(rawValue: text) else { throw PostgresRowError(column: "scope", problem: "is not a known scope") }
        return scope
    }

    static func values(_ device: Device) -> [String?] {
        [device.id, device.name, device.kind, String(device.created.credentialSeconds), device.secretHash,
         device.lastUsed.map { String($0.credentialSeconds) }, device.lastAddress, device.scope.rawValue]
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
                guard let row = used.first else { return nil }
                added.scope = try Self.scope(row.text("scope"))
            }
            let names = try conn.execute("SELECT name FROM \(devicesTable)").rows.map { try $0.text("name") }
            added.name = DeviceNames.unique(device.name, among: names)
            try conn.execute("INSERT INTO \(devicesTable) (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", Self.values(added))
            return added
        }
    }

    public func devices() throws -> [Device] {
        try run("read") { conn in try Self.devices(try conn.execute("SELECT \(Self.columns) FROM \(devicesTable) ORDER BY created, seq")) }
    }

    public func device(secretHash: String) throws -> Device? {
        try run("read") { conn in
            try Self.devices(try conn.execute("SELECT \(Self.columns) FROM \(devicesTable) WHERE secret_hash = $1", [secretHash])).first
        }
    }

    public func removeDevice(id: String) throws -> Device? {
        try run("revoke") { conn in
            try Self.devices(try conn.execute("DELETE FROM \(devicesTable) WHERE id = $1 RETURNING \(Self.columns)", [id])).first
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
            var names = try conn.execute("SELECT name FROM \(devicesTable)").rows.map { try $0.text("name") }
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

    func transaction<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try database.transaction(what, body)
    }

    func run<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try database.run(what, body)
    }
}
