import Foundation

/// Who may share: the devices and the pending pairings. Nothing is cached: each call asks the
/// database, so a revoked device is refused by every server from its next request. Secrets are
/// never stored, only their SHA-256 (`DeviceRegistry.hash`).
public protocol DeviceStore: Sendable {
    /// "sqlite" or "postgres", for log lines.
    var kind: String { get }
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
