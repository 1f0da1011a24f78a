import Foundation

/// The server's named secrets (`share-token`, `feed-secret`), one value per name for every
/// server on the database.
public protocol SecretStore: Sendable {
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
}

extension SecretStore {
    /// The share token every server on the store accepts.
    public func shareToken(proposing proposed: String) throws -> String { try secret(named: "share-token", proposing: proposed) }
}
