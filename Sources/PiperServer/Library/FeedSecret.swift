import Foundation
import Glibc
import PiperCore

/// The private feed's capability secret: 256 random bits in `feed-secret` (0600) in the state
/// folder, created on first use. Whoever knows it can read the feed and its media, so it is
/// revocable: `piper library feed --revoke` writes a new one and every old URL stops working,
/// in a running server too (the file is read on each use).
public struct FeedSecret: Sendable {
    public let file: URL

    public init(state: StateFolder) {
        file = state.url.appendingPathComponent("feed-secret")
    }

    /// The current secret, created if there is none yet (two processes racing agree on one:
    /// the file is linked into place only if absent).
    public func current() throws -> String {
        if let secret = read() { return secret }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temp = file.deletingLastPathComponent().appendingPathComponent(".feed-secret.\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: Data((DeviceRegistry.randomSecret() + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw StateFolderError.cannotWrite(file.path)
        }
        defer { unlink(temp.path) }
        if link(temp.path, file.path) != 0 && errno != EEXIST { throw StateFolderError.cannotWrite(file.path) }
        guard let secret = read() else { throw StateFolderError.cannotWrite(file.path) }
        return secret
    }

    /// Replaces the secret; returns the new one.
    @discardableResult
    public func revoke() throws -> String {
        let secret = DeviceRegistry.randomSecret()
        try StateFolder.writeAtomically(Data((secret + "\n").utf8), to: file, mode: 0o600)
        return secret
    }

    /// Whether `candidate` is the current secret (compared in constant time); false when none exists.
    public func accepts(_ candidate: String) -> Bool {
        guard let secret = read(), !candidate.isEmpty else { return false }
        return DeviceRegistry.same(candidate, secret)
    }

    private func read() -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return secret.isEmpty ? nil : secret
    }
}
