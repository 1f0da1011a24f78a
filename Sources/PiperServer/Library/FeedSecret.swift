import Foundation
import Glibc
import PiperCore

/// The private feed's capability secret: 256 random bits kept in the server's store beside the
/// share token (`SecretStore.secret(named: "feed-secret")`), so every `piper serve` on one
/// database serves the same feed URL. Whoever knows it can read the feed and its media, so it
/// is revocable: `piper library feed --revoke` stores a new one and every old URL stops
/// working, in every running server at once (the store is asked on each use).
///
/// A state folder's former `feed-secret` file is the secret proposed the first time the store
/// is asked, so feed URLs handed out before keep working; it is then renamed
/// `feed-secret.migrated`.
public struct FeedSecret: Sendable {
    public static let name = "feed-secret"
    public let store: any SecretStore
    /// The file the secret was kept in before the store.
    public let formerFile: URL

    public init(state: StateFolder, store: any SecretStore) {
        self.store = store
        formerFile = state.url.appendingPathComponent(Self.name)
    }

    /// Over the state folder's default SQLite file (`piper-serve.sqlite`).
    public init(state: StateFolder) throws {
        _ = try state.ensure()
        self.init(state: state, store: try SQLiteCredentials(path: state.serverDatabase.path))
    }

    /// The current secret, created if there is none yet (two processes racing agree on one:
    /// the store keeps the first).
    public func current() throws -> String {
        let former = readFormer()
        let secret = try store.secret(named: Self.name, proposing: former ?? DeviceRegistry.randomSecret())
        if former != nil { retireFormer() }
        return secret
    }

    /// Replaces the secret; returns the new one.
    @discardableResult
    public func revoke() throws -> String {
        let secret = DeviceRegistry.randomSecret()
        try store.replaceSecret(named: Self.name, with: secret)
        retireFormer()
        return secret
    }

    /// Whether `candidate` is the current secret (compared in constant time): one read of the
    /// store, asked on every feed and media request (the server makes the secret, and moves a
    /// former file's, when it starts: `current`). False when there is none or the store cannot
    /// be read.
    public func accepts(_ candidate: String) -> Bool {
        guard !candidate.isEmpty, let secret = (try? store.storedSecret(named: Self.name)) ?? nil else { return false }
        return DeviceRegistry.same(candidate, secret)
    }

    private func readFormer() -> String? {
        guard let text = try? String(contentsOf: formerFile, encoding: .utf8) else { return nil }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return secret.isEmpty ? nil : secret
    }

    /// Renames the former file aside once the store holds the secret (a failure leaves it to
    /// be proposed again, which the store ignores).
    private func retireFormer() {
        let aside = formerFile.path + DeviceRegistry.importedSuffix
        if rename(formerFile.path, aside) == 0 {
            RequestLog.standardError.write("Moved the feed's secret from \(formerFile.path) into the \(store.kind) store; the file is now \(aside)")
        }
    }
}
