import Foundation

/// The server's store of credentials, by concern, over one database: who may share
/// (`DeviceStore`: devices and pending pairings), the server's named secrets (`SecretStore`: the
/// share token, the feed's secret) and the share ledger (`ShareLedger`: recent shares and their
/// idempotency keys). It is the store `piper serve` keeps its saves in (SQLite by default,
/// PostgreSQL with `--postgres`), so every server on one database and every `piper pair`/`piper
/// devices` on it see one set of credentials. A driver implements all three; a user takes the
/// one it needs (the feed, `SecretStore`; the share runner, `ShareLedger`).
///
/// Calls are synchronous and may come from several threads at once.
public protocol CredentialStore: DeviceStore, SecretStore, ShareLedger {}

extension Date {
    /// Whole seconds since 1970, the unit the credential tables keep (as `devices.json` did).
    var credentialSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}
