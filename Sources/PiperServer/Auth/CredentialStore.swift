import Foundation

/// Where the devices allowed to share and the pending pairings live: the store `piper serve`
/// keeps its saves in (SQLite by default, PostgreSQL with `--postgres`), so every server on one
/// database and every `piper pair`/`piper devices` on it see one set of credentials. Nothing is
/// cached: each call asks the database, so a revoked device is refused by every server from its
/// next request. Secrets are never stored, only their SHA-256 (`DeviceRegistry.hash`).
///
/// The share ledger (recent shares, idempotency keys) lives beside them, in the same database.
///
/// Calls are synchronous and may come from several threads at once.
public protocol CredentialStore: ShareLedger {
    /// "sqlite" or "postgres", for log lines.
    var kind: String { get }
    /// The server secret called `name` (`share-token`, `feed-secret`): the one stored, else
    /// `proposed`, stored now (the first server or command to ask decides it for every server
    /// on the database). Kept as is, not hashed: the operator reads the share token back (each
    /// server writes it to its state folder's `share-token`), and the feed's secret is part of
    /// the feed URL `piper library feed` prints.
    func secret(named name: String, proposing proposed: String) throws -> String
    /// The server secret called `name` as stored, nil when there is none (a read, for checks on
    /// every request).
    func storedSecret(named name: String) throws -> String?
    /// Replaces the server secret called `name` (a revoked feed secret).
    func replaceSecret(named name: String, with value: String) throws
    /// Records a pending pairing (a code's hash valid until `expires`, for a device of `scope`),
    /// dropping expired ones.
    func addPairing(codeHash: String, expires: Date, scope: DeviceScope, now: Date) throws
    /// Whether a pairing with this code hash is pending at `now`.
    func pairingIsPending(codeHash: String, now: Date) throws -> Bool
    /// Adds `device` (its name made unique among the devices with `DeviceNames.unique`), using
    /// up the pending pairing `pairing` in the same transaction when given (the device then has
    /// the pairing's scope): nil when that pairing is not pending (unknown, used or expired),
    /// nothing added.
    func addDevice(_ device: Device, redeeming pairing: String?, now: Date) throws -> Device?
    /// Every device, oldest first.
    func devices() throws -> [Device]
    /// The device whose secret has this hash (an indexed lookup), if any.
    func device(secretHash: String) throws -> Device?
    /// Removes the device with this id; returns it, or nil when there is none. (Which device a
    /// name means is `DeviceRegistry.revoke`'s to decide.)
    func removeDevice(id: String) throws -> Device?
    /// Records a device's last use and address.
    func noteUse(deviceID: String, at: Date, address: String) throws
    /// Imports devices and pairings (from the former `devices.json`) in one transaction; those
    /// already there (same id or code hash) are kept, and an imported device whose name is taken
    /// or reserved gets another (`DeviceNames.importedName`). Returns how many devices were added.
    func importRecords(devices: [Device], pairings: [(codeHash: String, expires: Date)]) throws -> Int
}

extension Date {
    /// Whole seconds since 1970, the unit the credential tables keep (as `devices.json` did).
    var credentialSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

extension CredentialStore {
    /// The share token every server on the store accepts.
    public func shareToken(proposing proposed: String) throws -> String { try secret(named: "share-token", proposing: proposed) }
}
