import Foundation
import PiperCore
import PiperSQLite
import PiperTestSupport
import Testing
@testable import PiperServer

/// Scopes and names on both credential stores (SQLite, and PostgreSQL when configured): what a
/// pairing, a token and an older database's devices may do, and which names a device may have.
@Suite(.ownThread) struct CredentialScopeContractTests {
    @Test(arguments: CredentialDriver.available)
    func aPairingGivesItsScopeAndTokensOnlyShare(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let owner = try a.createPairing()
        let guest = try a.createPairing(scope: .share)
        #expect(try b.redeemPairing(owner, name: "my phone")?.0.scope == .owner)
        #expect(try b.redeemPairing(guest, name: "guest phone")?.0.scope == .share)
        #expect(try a.createToken(name: "Shortcut").0.scope == .share)
        #expect(try b.devices().map(\.scope) == [.owner, .share, .share], "the scope is stored, not only returned")
    }

    @Test(arguments: CredentialDriver.available)
    func reservedAndIDShapedNamesAreRefused(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let (first, _) = try a.createToken(name: "Shortcut")
        for name in ["share-token", " Share-Token ", "feed"] {
            #expect(throws: DeviceNameError.reserved(name.trimmingCharacters(in: .whitespaces))) { try b.createToken(name: name) }
        }
        for name in [first.id, first.id.uppercased(), "0badc0de", "123e4567-e89b-12d3-a456-426614174000"] {
            #expect(throws: DeviceNameError.idShaped(name)) { try b.createToken(name: name) }
        }
        // A pairing whose name is refused is not used up.
        let code = try a.createPairing()
        #expect(throws: DeviceNameError.reserved("share-token")) { try b.redeemPairing(code, name: "share-token") }
        #expect(try b.pairingIsPending(code))
        // Invisible characters are no part of a name: "share\u{200B}-token" is "share-token".
        #expect(throws: DeviceNameError.reserved("share-token")) { try b.createToken(name: "share\u{200B}-token") }
        #expect(try a.devices().map(\.name) == ["Shortcut"])
    }

    /// A database from before the naming rules (here its former `devices.json`) may hold a name
    /// that is another device's id, names that differ only in case, and `share-token`: the
    /// reserved one is renamed, the others kept, and a revoke of a name meaning several
    /// devices removes none and lists them.
    @Test(arguments: CredentialDriver.available)
    func anAmbiguousRevokeRemovesNothingAndListsTheCandidates(_ driver: CredentialDriver) throws {
        let (a, _, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        func device(_ id: String, _ name: String, _ kind: String) -> String {
            """
            {"id":"\(id)","name":"\(name)","kind":"\(kind)","created":"2026-11-30T08:00:00Z","secretHash":"\(DeviceRegistry.hash(id))"}
            """
        }
        let file = """
            {"devices":[\(device("ab12cd34", "old phone", "browser")), \(device("ef56ab78", "ab12cd34", "token")),
                        \(device("0a0b0c0d", "iPhone", "browser")), \(device("1a1b1c1d", "iphone", "token")),
                        \(device("2a2b2c2d", "share-token", "token")), \(device("3a3b3c3d", "old phone", "token"))],
             "pairings":[]}
            """
        try Data(file.utf8).write(to: a.state.url.appendingPathComponent("devices.json"))
        let registry = try DeviceRegistry(state: a.state, credentials: a.credentials)
        let names = try registry.devices().map(\.name)
        #expect(Set(names) == ["old phone", "ab12cd34", "iPhone", "iphone", "share-token (renamed)", "old phone 2"], "\(names)")
        #expect(try registry.devices().first { $0.id == "0a0b0c0d" }?.scope == .owner, "a former browser is the owner's")
        #expect(try registry.devices().first { $0.id == "1a1b1c1d" }?.scope == .share, "a former token shares")
        for given in ["ab12cd34", "IPHONE"] {
            do {
                _ = try registry.revoke(given)
                Issue.record("'\(given)' revoked a device")
            } catch let ambiguous as AmbiguousDevice {
                #expect(ambiguous.candidates.count == 2)
                #expect(ambiguous.description.contains("revoke one by its id"), "\(ambiguous.description)")
            }
        }
        #expect(try registry.devices().count == 6, "nothing was removed")
        #expect(try registry.revoke("ef56ab78")?.name == "ab12cd34", "by its id, the one named")
        #expect(try registry.revoke("ab12cd34")?.id == "ab12cd34", "no longer ambiguous")
        #expect(try registry.devices().count == 4)
    }

    /// An SQLite file of the schema before scopes (migration 5): its tokens become share-only,
    /// its browsers stay the owner's, a device named `share-token` is renamed, and a pairing
    /// made before pairs the owner's browser.
    @Test func anSQLiteFileFromBeforeScopesIsMigrated() throws {
        let home = try freshDirectory("scopes-migrate")
        let path = home.appendingPathComponent("piper-serve.sqlite").path
        do {
            let database = try Database(path: path)
            try database.migrate(Array(SQLiteStore.migrations.prefix(5)))
            for (id, name, kind) in [("ab12cd34", "laptop", "browser"), ("ef56ab78", "share-token", "token"), ("01234567", "Shortcut", "token")] {
                _ = try database.run("INSERT INTO devices (id, name, kind, created, secret_hash) VALUES (?, ?, ?, ?, ?)",
                                     [.text(id), .text(name), .text(kind), .int(1_800_000_000), .text(DeviceRegistry.hash(id))])
            }
            _ = try database.run("INSERT INTO pairings (code_hash, expires) VALUES (?, ?)",
                                 [.text(DeviceRegistry.hash("old-code")), .int(4_000_000_000)])
        }
        let registry = try DeviceRegistry(state: StateFolder(url: home), credentials: SQLiteCredentials(path: path))
        let devices = try registry.devices()
        #expect(devices.map(\.name) == ["laptop", "share-token (renamed)", "Shortcut"])
        #expect(devices.map(\.scope) == [.owner, .share, .share])
        #expect(try registry.redeemPairing("old-code", name: "new phone")?.0.scope == .owner)
    }

    /// The same on PostgreSQL: tables made by the version before scopes gain them on open.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured))
    func postgresTablesFromBeforeScopesAreMigrated() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let conn = try schema.connect()
        try conn.execute("""
            CREATE TABLE piper_devices (id text PRIMARY KEY, name text NOT NULL UNIQUE, kind text NOT NULL, created bigint NOT NULL,
                                        secret_hash text NOT NULL UNIQUE, last_used bigint, last_address text, seq bigserial)
            """)
        try conn.execute("CREATE TABLE piper_pairings (code_hash text PRIMARY KEY, expires bigint NOT NULL)")
        for (id, name, kind) in [("ab12cd34", "laptop", "browser"), ("ef56ab78", "share-token", "token")] {
            try conn.execute("INSERT INTO piper_devices (id, name, kind, created, secret_hash) VALUES ($1, $2, $3, 1800000000, $4)",
                             [id, name, kind, DeviceRegistry.hash(id)])
        }
        let credentials = PostgresCredentials(database: try schema.open())
        _ = try schema.open()   // a second open changes nothing more
        let devices = try credentials.devices()
        #expect(devices.map(\.name) == ["laptop", "share-token (renamed)"])
        #expect(devices.map(\.scope) == [.owner, .share])
    }
}
