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
    public var created: Date
    var secretHash: String
    /// When the device last made a request, and from which address (the client a trusted proxy
    /// names): what tells two phones apart. Updated at most once a minute per device.
    public var lastUsed: Date?
    public var lastAddress: String?
}

/// The credentials `piper serve` accepts, kept in the state folder so `piper pair` and
/// `piper devices` (other processes) change what a running server accepts: the share token
/// (`share-token`, 0600), the devices and the pending pairings (`devices.json`, 0600). Every
/// change is a read-modify-write under `flock` on `devices.lock`, written atomically.
public struct DeviceRegistry: Sendable {
    public let state: StateFolder
    /// How long a pairing URL works.
    public static let pairingLifetime: TimeInterval = 600

    struct Pairing: Codable, Equatable {
        var codeHash: String
        var expires: Date
    }

    struct Contents: Codable {
        var devices: [Device] = []
        var pairings: [Pairing] = []
    }

    public init(state: StateFolder) { self.state = state }

    var tokenFile: URL { state.url.appendingPathComponent("share-token") }
    var devicesFile: URL { state.url.appendingPathComponent("devices.json") }
    var lockFile: URL { state.url.appendingPathComponent("devices.lock") }

    /// The share token, created (256 random bits, hex) on first use.
    public func shareToken() throws -> String {
        if let data = FileManager.default.contents(atPath: tokenFile.path) {
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if token.count >= 32 { return token }
        }
        return try locked {
            if let data = FileManager.default.contents(atPath: tokenFile.path),
               case let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
               token.count >= 32 { return token }
            let token = Self.randomSecret()
            try StateFolder.writeAtomically(Data((token + "\n").utf8), to: tokenFile, mode: 0o600)
            return token
        }
    }

    /// A new one-time pairing code, valid for `pairingLifetime`.
    public func createPairing(now: Date = Date()) throws -> String {
        let code = Self.randomSecret()
        try update { contents in
            contents.pairings.removeAll { $0.expires <= now }
            contents.pairings.append(Pairing(codeHash: Self.hash(code), expires: now.addingTimeInterval(Self.pairingLifetime)))
        }
        return code
    }

    /// Whether a pairing code is still waiting to be redeemed (looking does not use it up).
    public func pairingIsPending(_ code: String, now: Date = Date()) throws -> Bool {
        let hash = Self.hash(code)
        return try read().pairings.contains { $0.expires > now && Self.same($0.codeHash, hash) }
    }

    /// Redeems a pairing code (once): a new browser device and its secret, or nil when the code
    /// is unknown, used or expired.
    public func redeemPairing(_ code: String, name: String, now: Date = Date()) throws -> (Device, String)? {
        try addDevice(name: name, kind: "browser", now: now, pairingCode: code)
    }

    /// A named bearer token (for a Shortcut or a script); the secret is shown once.
    public func createToken(name: String, now: Date = Date()) throws -> (Device, String) {
        guard let made = try addDevice(name: name, kind: "token", now: now, pairingCode: nil) else {
            throw StateFolderError.cannotWrite(devicesFile.path)
        }
        return made
    }

    private func addDevice(name: String, kind: String, now: Date, pairingCode: String?) throws -> (Device, String)? {
        let secret = Self.randomSecret()
        var made: Device?
        try update { contents in
            contents.pairings.removeAll { $0.expires <= now }
            if let pairingCode {
                let hash = Self.hash(pairingCode)
                guard let index = contents.pairings.firstIndex(where: { Self.same($0.codeHash, hash) }) else { return }
                contents.pairings.remove(at: index)
            }
            let device = Device(id: String(Self.randomSecret().prefix(8)), name: Self.uniqueName(name, in: contents.devices),
                                kind: kind, created: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                                secretHash: Self.hash(secret))   // whole seconds, as devices.json keeps them
            contents.devices.append(device)
            made = device
        }
        return made.map { ($0, secret) }
    }

    /// Every device, oldest first.
    public func devices() throws -> [Device] { try read().devices }

    /// Removes the device with this id or name; returns it, or nil when there is none.
    @discardableResult
    public func revoke(_ idOrName: String) throws -> Device? {
        var removed: Device?
        try update { contents in
            guard let index = contents.devices.firstIndex(where: { $0.id == idOrName || $0.name == idOrName }) else { return }
            removed = contents.devices.remove(at: index)
        }
        return removed
    }

    /// How stale a device's last use may get before a request records it again: a file write
    /// per request would be the cost otherwise.
    public static let useGranularity: TimeInterval = 60

    /// Records that `device` made a request from `address`, when its record is stale (older
    /// than `useGranularity`, or another address).
    public func noteUse(of device: Device, address: String, now: Date = Date()) throws {
        if let last = device.lastUsed, now.timeIntervalSince(last) < Self.useGranularity, device.lastAddress == address { return }
        try update { contents in
            guard let index = contents.devices.firstIndex(where: { $0.id == device.id }) else { return }
            contents.devices[index].lastUsed = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            contents.devices[index].lastAddress = address
        }
    }

    /// The device whose secret this is, if any.
    public func device(forSecret secret: String) throws -> Device? {
        let hash = Self.hash(secret)
        return try read().devices.first { Self.same($0.secretHash, hash) }
    }

    func read() throws -> Contents {
        guard let data = FileManager.default.contents(atPath: devicesFile.path), !data.isEmpty else { return Contents() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Contents.self, from: data)
    }

    private func update(_ change: (inout Contents) throws -> Void) throws {
        try locked {
            var contents = try read()
            try change(&contents)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try StateFolder.writeAtomically(try encoder.encode(contents), to: devicesFile, mode: 0o600)
        }
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        _ = try state.ensure()
        let fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFolderError.cannotWrite(lockFile.path) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    static func uniqueName(_ name: String, in devices: [Device]) -> String {
        let base = name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(60)
        let start = base.isEmpty ? "device" : String(base)
        var candidate = start, number = 2
        while devices.contains(where: { $0.name == candidate }) {
            candidate = "\(start) \(number)"
            number += 1
        }
        return candidate
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
