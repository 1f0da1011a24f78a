import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The credential drivers the contract runs against: PostgreSQL only when it is configured
/// (under CI its absence fails `PostgresRequirementTests`).
enum CredentialDriver: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    static var available: [CredentialDriver] {
        allCases.filter { $0 != .postgres || PostgresTestDatabase.isConfigured }
    }
}

/// Two registries on one fresh store of `driver` (two connections, as two processes hold), in
/// fresh state folders, plus the cleanup.
func makeCredentialStores(_ driver: CredentialDriver) throws -> (first: DeviceRegistry, second: DeviceRegistry, cleanup: () -> Void) {
    let homes = (try freshDirectory("credentials-a"), try freshDirectory("credentials-b"))
    switch driver {
    case .sqlite:
        let path = homes.0.appendingPathComponent("piper-serve.sqlite").path
        return (try DeviceRegistry(state: StateFolder(url: homes.0), credentials: SQLiteCredentials(path: path)),
                try DeviceRegistry(state: StateFolder(url: homes.1), credentials: SQLiteCredentials(path: path)), {})
    case .postgres:
        let schema = try FreshPostgresSchema()
        return (try DeviceRegistry(state: StateFolder(url: homes.0), credentials: PostgresCredentials(database: schema.open())),
                try DeviceRegistry(state: StateFolder(url: homes.1), credentials: PostgresCredentials(database: schema.open())),
                { schema.drop() })
    }
}

@Suite(.ownThread) struct CredentialStoreContractTests {
    @Test(arguments: CredentialDriver.available)
    func aPairingIsRedeemedOnceWhereverItWasMade(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let now = Date()
        let code = try a.createPairing(now: now)
        #expect(try b.pairingIsPending(code, now: now))
        #expect(try b.pairingIsPending(code, now: now) , "looking does not use it up")
        let (device, secret) = try #require(try b.redeemPairing(code, name: "phone", now: now))
        #expect(device.kind == "browser" && device.name == "phone")
        #expect(try a.redeemPairing(code, name: "phone", now: now) == nil, "a code pairs once")
        #expect(try !a.pairingIsPending(code, now: now))
        #expect(try a.device(forSecret: secret)?.id == device.id)
        #expect(try a.device(forSecret: "nope") == nil)
    }

    @Test(arguments: CredentialDriver.available)
    func anExpiredPairingPairsNothing(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let made = Date()
        let code = try a.createPairing(now: made)
        let later = made.addingTimeInterval(DeviceRegistry.pairingLifetime + 1)
        #expect(try !b.pairingIsPending(code, now: later))
        #expect(try b.redeemPairing(code, name: "late", now: later) == nil)
        #expect(try a.devices().isEmpty)
    }

    @Test(arguments: CredentialDriver.available)
    func aRevokedDeviceIsRefusedAtOnceEverywhere(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let (token, secret) = try a.createToken(name: "Shortcut")
        #expect(try b.device(forSecret: secret)?.name == "Shortcut")
        #expect(try b.revoke("Shortcut")?.id == token.id)
        #expect(try a.device(forSecret: secret) == nil)
        #expect(try a.revoke(token.id) == nil)
    }

    @Test(arguments: CredentialDriver.available)
    func namesStayUniqueAndTheListIsOldestFirst(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try a.createToken(name: "laptop", now: start)
        _ = try b.createToken(name: "laptop", now: start.addingTimeInterval(1))
        _ = try a.createToken(name: "  ", now: start.addingTimeInterval(2))
        #expect(try b.devices().map(\.name) == ["laptop", "laptop 2", "device"])
        #expect(try b.devices().first?.created == start)
        // Unique case aside: "Laptop" is taken by "laptop".
        #expect(try a.createToken(name: "Laptop", now: start.addingTimeInterval(3)).0.name == "Laptop 3")
        let third = try #require(try a.devices().first { $0.name == "device" })
        #expect(try a.revoke(third.id)?.name == "device")
    }

    @Test(arguments: CredentialDriver.available)
    func aDevicesLastUseAndAddressAreKept(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (device, secret) = try a.createToken(name: "tablet", now: now)
        try a.noteUse(of: device, address: "192.168.1.23", now: now.addingTimeInterval(5))
        let used = try #require(try b.device(forSecret: secret))
        #expect(used.lastUsed == now.addingTimeInterval(5) && used.lastAddress == "192.168.1.23")
        // Within a minute from the same address nothing is written; another address is.
        try b.noteUse(of: used, address: "192.168.1.23", now: now.addingTimeInterval(30))
        #expect(try a.device(forSecret: secret)?.lastUsed == now.addingTimeInterval(5))
        try b.noteUse(of: used, address: "10.0.0.7", now: now.addingTimeInterval(30))
        #expect(try a.devices().first?.lastAddress == "10.0.0.7")
    }

    @Test(arguments: CredentialDriver.available)
    func theShareTokenIsOneForEveryServerAndWrittenToEachStateFolder(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        // B's state folder has a token of its own from before: the store's (A's, asked first) wins.
        let own = String(repeating: "b", count: 64)
        try Data((own + "\n").utf8).write(to: b.state.url.appendingPathComponent("share-token"))
        let token = try a.shareToken()
        #expect(token.count == 64 && token != own)
        #expect(try b.shareToken() == token)
        for registry in [a, b] {
            let file = registry.state.url.appendingPathComponent("share-token")
            #expect(try String(contentsOf: file, encoding: .utf8) == token + "\n")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    /// The former `devices.json` moves into the store on first open, once, and is set aside.
    @Test(arguments: CredentialDriver.available)
    func theFormerDevicesFileIsImportedOnceAndSetAside(_ driver: CredentialDriver) throws {
        let (a, _, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let home = a.state.url
        let secret = "phone-secret"
        let created = "2026-11-30T08:00:00Z", used = "2026-12-01T09:30:00Z"
        let file = """
            {"devices":[{"id":"ab12cd34","name":"old phone","kind":"browser","created":"\(created)",
                         "secretHash":"\(DeviceRegistry.hash(secret))","lastUsed":"\(used)","lastAddress":"192.168.1.5"},
                        {"id":"ef56ab78","name":"Shortcut","kind":"token","created":"\(created)",
                         "secretHash":"\(DeviceRegistry.hash("token-secret"))"}],
             "pairings":[{"codeHash":"\(DeviceRegistry.hash("pending-code"))","expires":"2099-01-01T00:00:00Z"}]}
            """
        let devicesFile = home.appendingPathComponent("devices.json")
        try Data(file.utf8).write(to: devicesFile)
        let registry = try DeviceRegistry(state: a.state, credentials: a.credentials)
        #expect(!FileManager.default.fileExists(atPath: devicesFile.path))
        #expect(FileManager.default.contents(atPath: devicesFile.path + ".migrated") == Data(file.utf8))
        let phone = try #require(try registry.device(forSecret: secret))
        #expect(phone.id == "ab12cd34" && phone.name == "old phone" && phone.lastAddress == "192.168.1.5")
        #expect(phone.lastUsed == ISO8601DateFormatter().date(from: used))
        #expect(try registry.device(forSecret: "token-secret")?.kind == "token")
        #expect(try registry.pairingIsPending("pending-code"))
        // A file put back (an import cut short before its rename) adds nothing twice.
        try Data(file.utf8).write(to: devicesFile)
        #expect(try registry.importFiles() == 0)
        #expect(try registry.devices().count == 2)
    }
}
