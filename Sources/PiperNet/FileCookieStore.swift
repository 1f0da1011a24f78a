import Foundation
import PiperCore

/// The `CookieStore` port on disk: the state folder's `cookies.txt` (Netscape format, mode 0600).
public struct FileCookieStore: CookieStore {
    public let state: StateFolder

    public init(state: StateFolder) { self.state = state }

    public var file: URL { state.cookiesFile }

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

    public func save(_ jar: CookieJar) throws {
        try state.ensure()
        try StateFolder.writeAtomically(Data(NetscapeCookies.serialize(jar.cookies).utf8), to: file, mode: 0o600)
    }

    @discardableResult
    public func remove() throws -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        try FileManager.default.removeItem(at: file)
        return true
    }
}
