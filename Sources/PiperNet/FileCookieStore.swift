import Foundation
import PiperCore

/// The `CookieStore` port on disk: the state folder's `cookies.txt` (Netscape format, mode 0600).
public struct FileCookieStore: CookieStore {
    package let state: StateFolder

    /// The store of `state`: login, logout and every share read and write the same file.
    public init(state: StateFolder) { self.state = state }

    package var file: URL { state.cookiesFile }

    /// The saved cookies; an empty jar when there is no file yet (nobody logged in), and a
    /// `CookieFileError` when it cannot be read or a line is malformed, so a share says why.
    public func load() throws -> CookieJar {
        guard FileManager.default.fileExists(atPath: file.path) else { return CookieJar() }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw CookieFileError.unreadable(file.path, error.localizedDescription)
        }
        return CookieJar(try NetscapeCookies.parse(text))
    }

    /// Replaces the file atomically at mode 0600: the cookies are a login, readable by the user alone.
    public func save(_ jar: CookieJar) throws {
        try state.ensure()
        try StateFolder.writeAtomically(Data(NetscapeCookies.serialize(jar.cookies).utf8), to: file, mode: 0o600)
    }

    /// Deletes the file (`piper logout`); false when there was none, so logout can say so.
    @discardableResult
    public func remove() throws -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        try FileManager.default.removeItem(at: file)
        return true
    }
}
