import Foundation
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

/// A device allowed to share: a paired browser (its cookie) or a named token (a Shortcut).
/// Only the SHA-256 of its secret is stored.
public struct Device: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    /// "browser" (paired through a pairing URL) or "token" (a bearer token for scripts).
    public var kind: String
    /// What it may do: a token only shares; a browser is the owner's unless it was paired
    /// with `piper pair --share-only`.
    public var scope: DeviceScope
    public var created: Date
    var secretHash: String
    /// When the device last made a request, and from which address (the client a trusted proxy
    /// names): what tells two phones apart. Updated at most once a minute per device.
    public var lastUsed: Date?
    public var lastAddress: String?

    public init(id: String, name: String, kind: String, scope: DeviceScope, created: Date, secretHash: String,
                lastUsed: Date? = nil, lastAddress: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.scope = scope
        self.created = created
        self.secretHash = secretHash
        self.lastUsed = lastUsed
        self.lastAddress = lastAddress
    }

    private enum CodingKeys: String, CodingKey { case id, name, kind, scope, created, secretHash, lastUsed, lastAddress }

    /// The former `devices.json` had no scopes: its tokens share, its browsers are the owner's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        self.init(id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name), kind: kind,
                  scope: try c.decodeIfPresent(DeviceScope.self, forKey: .scope) ?? (kind == "token" ? .share : .owner),
                  created: try c.decode(Date.self, forKey: .created), secretHash: try c.decode(String.self, forKey: .secretHash),
                  lastUsed: try c.decodeIfPresent(Date.self, forKey: .lastUsed), lastAddress: try c.decodeIfPresent(String.self, forKey: .lastAddress))
    }
}

/// The credentials `piper serve` accepts. The devices and the pending pairings are in the
/// server's store (`CredentialStore`: the SQLite file, or PostgreSQL with `--postgres`), so
/// `piper pair` and `piper devices` (other processes) and other servers on the same database
/// change what a running server accepts from its next request. The share token is in the store
/// too, and written to the state folder's `share-token` (0600) under `flock` on `devices.lock`.
public struct DeviceRegistry: Sendable {
    public let state: StateFolder
    public let credentials: any CredentialStore
    /// How long a pairing URL works.
    public static let pairingLifetime: TimeInterval = 600

    /// The registry over `credentials`, the former `devices.json` of `state` imported into them
    /// first (`importFiles`).
    public init(state: StateFolder, credentials: any CredentialStore) throws {
        self.state = state
        self.credentials = credentials
        try importFiles()
    }

    /// The registry over the state folder's default SQLite file (`piper-serve.sqlite`).
    public init(state: StateFolder) throws {
        _ = try state.ensure()
        try self.init(state: state, credentials: SQLiteCredentials(path: state.serverDatabase.path))
    }

    var tokenFile: URL { state.url.appendingPathComponent("share-token") }
    var devicesFile: URL { state.url.appendingPathComponent("devices.json") }
    var lockFile: URL { state.url.appendingPathComponent("devices.lock") }

    /// The share token, created (256 random bits, hex) on first use. The store keeps the one
    /// every server on it accepts (the state folder's former token, when it is the first to ask);
    /// the state folder's `share-token` (0600) is written with it for the operator to read, and a
    /// different one there is replaced, saying so on stderr.
    public func shareToken() throws -> String {
        try locked {
            var fileToken: String?
            if let data = FileManager.default.contents(atPath: tokenFile.path),
               case let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
               token.count >= 32 { fileToken = token }
            let token = try credentials.shareToken(proposing: fileToken ?? Self.randomSecret())
            if token != fileToken {
                try StateFolder.writeAtomically(Data((token + "\n").utf8), to: tokenFile, mode: 0o600)
                if fileToken != nil {
                    FileHandle.standardError.write(Data("The share token in \(tokenFile.path) is now the one the \(credentials.kind) store holds for every server on it\n".utf8))
                }
            }
            return token
        }
    }

    /// A new one-time pairing code, valid for `pairingLifetime`, for a browser of `scope` (the
    /// owner's, or share-only for someone else's phone).
    public func createPairing(scope: DeviceScope = .owner, now: Date = Date()) throws -> String {
        let code = Self.randomSecret()
        try credentials.addPairing(codeHash: Self.hash(code), expires: now.addingTimeInterval(Self.pairingLifetime), scope: scope, now: now)
        return code
    }

    /// Whether a pairing code is still waiting to be redeemed (looking does not use it up).
    public func pairingIsPending(_ code: String, now: Date = Date()) throws -> Bool {
        try credentials.pairingIsPending(codeHash: Self.hash(code), now: now)
    }

    /// Redeems a pairing code (once): a new browser device (of the pairing's scope) and its
    /// secret, or nil when the code is unknown, used or expired. A name that cannot be one
    /// (`DeviceNames.checked`) throws `DeviceNameError` and leaves the code unused.
    public func redeemPairing(_ code: String, name: String, now: Date = Date()) throws -> (Device, String)? {
        try addDevice(name: name, kind: "browser", scope: .share, now: now, pairingCode: code)
    }

    /// A named bearer token (for a Shortcut or a script); the secret is shown once. A token
    /// only shares: what the owner does needs the owner's browser or `piper` on the server.
    /// A name that cannot be one throws `DeviceNameError`.
    public func createToken(name: String, now: Date = Date()) throws -> (Device, String) {
        guard let made = try addDevice(name: name, kind: "token", scope: .share, now: now, pairingCode: nil) else {
            throw StoreError(.failed, "The token could not be added")
        }
        return made
    }

    private func addDevice(name: String, kind: String, scope: DeviceScope, now: Date, pairingCode: String?) throws -> (Device, String)? {
        let existing = try credentials.devices()
        let checked = try DeviceNames.checked(name, ids: existing.map(\.id))
        // Nor may the new id be a name a device already has (an older database's).
        let names = Set(existing.map { $0.name.lowercased() })
        var id = String(Self.randomSecret().prefix(8))
        while names.contains(id) { id = String(Self.randomSecret().prefix(8)) }
        let secret = Self.randomSecret()
        let device = Device(id: id, name: checked, kind: kind, scope: scope,
                            created: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                            secretHash: Self.hash(secret))   // whole seconds, as the tables keep them
        return try credentials.addDevice(device, redeeming: pairingCode.map(Self.hash), now: now).map { ($0, secret) }
    }

    /// Every device, oldest first.
    public func devices() throws -> [Device] { try credentials.devices() }

    /// Removes the device with this id or name (case aside) and returns it, or nil when there
    /// is none. When `idOrName` means more than one device (a name that is another device's id,
    /// or names that differ only in case, from a database older than the naming rules), none is
    /// removed: `AmbiguousDevice` lists them.
    @discardableResult
    public func revoke(_ idOrName: String) throws -> Device? {
        let found = DeviceNames.candidates(idOrName, in: try credentials.devices())
        guard found.count <= 1 else { throw AmbiguousDevice(given: idOrName, candidates: found) }
        guard let device = found.first else { return nil }
        return try credentials.removeDevice(id: device.id)
    }

    /// How stale a device's last use may get before a request records it again: a write per
    /// request would be the cost otherwise.
    public static let useGranularity: TimeInterval = 60

    /// Records that `device` made a request from `address`, when its record is stale (older
    /// than `useGranularity`, or another address).
    public func noteUse(of device: Device, address: String, now: Date = Date()) throws {
        if let last = device.lastUsed, now.timeIntervalSince(last) < Self.useGranularity, device.lastAddress == address { return }
        try credentials.noteUse(deviceID: device.id, at: now, address: address)
    }

    /// The device whose secret this is, if any: asked of the store on every call (indexed by the
    /// secret's hash), so a device revoked anywhere is refused at once.
    public func device(forSecret secret: String) throws -> Device? {
        try credentials.device(secretHash: Self.hash(secret))
    }

    func locked<T>(_ body: () throws -> T) throws -> T {
        _ = try state.ensure()
        let fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFolderError.cannotWrite(lockFile.path) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// 256 random bits as 64 hex digits.
    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func hash(_ secret: String) -> String { SHA256.hex(of: Array(secret.utf8)) }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
