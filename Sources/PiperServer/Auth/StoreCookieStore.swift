import Foundation
import PiperCore

/// The X login in the server's store (`--postgres`): the cookies `/connect-x` saves, kept as a
/// server secret (`x-cookies`, Netscape text) that every server on the database reads at each
/// share, so X connected through one server is used by the next share on any of them. Like the
/// other server secrets it is read only by the server: no page or API shows it back (the
/// Connect X page says how many cookies there are, never their values).
public struct StoreCookieStore: CookieStore {
    static let secretName = "x-cookies"
    let secrets: any SecretStore

    /// The cookies kept in `secrets` (the server's credential store).
    public init(secrets: any SecretStore) { self.secrets = secrets }

    /// The stored cookies; an empty jar when none are (nobody connected X, or it was forgotten).
    public func load() throws -> CookieJar {
        guard let text = try secrets.storedSecret(named: Self.secretName), !text.isEmpty else { return CookieJar() }
        return CookieJar(try NetscapeCookies.parse(text))
    }

    public func save(_ jar: CookieJar) throws {
        try secrets.replaceSecret(named: Self.secretName, with: NetscapeCookies.serialize(jar.cookies))
    }

    /// Forgets the cookies (the secret is emptied: the stores keep a name once made); false when
    /// there were none.
    @discardableResult
    public func remove() throws -> Bool {
        guard let text = try secrets.storedSecret(named: Self.secretName), !text.isEmpty else { return false }
        try secrets.replaceSecret(named: Self.secretName, with: "")
        return true
    }
}
