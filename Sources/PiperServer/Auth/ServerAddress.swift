import Foundation

/// The server's public URL (`piper serve --public-url`), kept in its store beside the share
/// token (`CredentialStore`'s server secrets, named `public-url`; not a secret, but a setting
/// every server and command on the store must agree on), so `piper pair`, `piper library feed`
/// and `piper devices` run on the server's state folder (or database) build their links on the
/// address the phone reaches, with no `piper config set backend` first.
public enum ServerAddress {
    static let name = "public-url"

    /// Records `url` as the server's public URL (the last server started with one decides).
    public static func record(_ url: String, in store: any CredentialStore) throws {
        try store.replaceSecret(named: name, with: url)
    }

    /// The public URL a server recorded, nil when none did (or the store cannot be read).
    public static func recorded(in store: any CredentialStore) -> String? {
        guard let url = (try? store.storedSecret(named: name)) ?? nil, !url.isEmpty else { return nil }
        return url
    }
}
