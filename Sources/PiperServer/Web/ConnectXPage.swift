import Foundation
import PiperCore

/// `/connect-x`: the paired owner connects the server's X account from a browser, by pasting
/// a cookies.txt export (what `piper login --cookies FILE` imports on the server's machine).
/// Only X's domains are kept, stored 0600 in the state folder (with `--postgres`, in the store,
/// for every server: `StoreCookieStore`); the cookies are never shown
/// back, only how many there are and until when they work. `POST` with `forget` removes them.
struct ConnectXPage: Sendable {
    let cookies: any CookieStore
    let clock: @Sendable () -> Date

    static let path = "/connect-x"

    func page(_ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        return render(status: state(), device: credential.name)
    }

    func change(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let fields = try ShareRoute.fields(of: request)
        if fields["forget"] != nil {
            try cookies.remove()
            return render(status: "Forgotten: the server has no X cookies now.", device: credential.name)
        }
        let text = fields["cookies"] ?? ""
        do {
            let imported = try CookieImport.make(from: text, path: "the pasted cookies.txt", now: clock())
            try cookies.save(imported.jar)
            return render(status: "Connected. " + imported.summary(at: clock()), device: credential.name)
        } catch let error as HTTPError {
            throw error
        } catch {
            return render(status: "Not connected: \(error)", device: credential.name, status: 400)
        }
    }

    /// Where the server's X connection stands, without a cookie's value.
    private func state() -> String {
        guard let jar = try? cookies.load(), jar.isConnected(at: clock()) else { return "Not connected: the server has no usable X cookies." }
        return "Connected: the server has \(jar.cookies.count) X cookies."
    }

    private func render(status: String, device: String, status code: Int = 200) -> HTTPResponse {
        let e = WebPage.e
        let body = """
            <h1>Connect your X account</h1>
            <p id="x-status">\(e(status))</p>
            <p>Piper reads X posts as you see them, with your login's cookies. On a computer where you are signed in to
            x.com, export its cookies as a <em>cookies.txt</em> file (a browser extension such as “Get cookies.txt”,
            or <code>yt-dlp --cookies-from-browser</code>), open it, and paste its text here. Only x.com and twitter.com
            cookies are kept, on the server, readable by it alone.</p>
            <form method="post" action="\(Self.path)">
            <label for="cookies-file">Choose the cookies.txt file</label>
            <input type="file" id="cookies-file" accept=".txt,text/plain">
            <label for="cookies">or paste its text</label>
            <textarea id="cookies" name="cookies" rows="8" required></textarea>
            <button type="submit">Connect</button>
            </form>
            <form method="post" action="\(Self.path)"><input type="hidden" name="forget" value="1"><button type="submit">Forget the X cookies</button></form>
            """
        return WebPage.render("Connect X", body, status: code, device: device)
    }
}
