import Foundation

/// The installable web app: `/` (paste a link, recent shares with their live state, the
/// bookmarklet), `/api/shares`, `/shortcut` (the iOS Shortcut), `POST /tokens` (a bearer token
/// for a Shortcut), and the public static files (manifest, worker, script, style, icons).
struct WebAppRoute: HTTPResponder {
    let auth: ShareAuth
    let runner: ShareRunner
    let publicURL: LateValue
    let clock: @Sendable () -> Date

    static let paths: Set<String> = ["/", "/api/shares", "/shortcut", "/tokens", "/app.css", "/app.js", "/sw.js",
                                     "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"]

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        if let asset = Self.asset(request.path) {
            guard request.method == "GET" || request.method == "HEAD" else { throw HTTPError.methodNotAllowed(["GET", "HEAD"]) }
            return asset
        }
        if request.path == "/tokens" { return try token(request) }
        guard request.method == "GET" || request.method == "HEAD" else { throw HTTPError.methodNotAllowed(["GET", "HEAD"]) }
        let credential: Credential
        do {
            credential = try auth.require(request)
        } catch let error as HTTPError {
            return request.path == "/api/shares" || WebPage.wantsJSON(request) ? .error(error) : WebPage.failure(error)
        }
        switch request.path {
        case "/api/shares": return shares(credential)
        case "/shortcut": return ShortcutPage.render(publicURL: publicURL.get(), device: credential.name)
        default: return home(credential)
        }
    }

    static func asset(_ path: String) -> HTTPResponse? {
        func file(_ type: String, _ body: [UInt8], worker: Bool = false) -> HTTPResponse {
            var headers: [(name: String, value: String)] = [("Content-Type", type), ("Cache-Control", "no-cache")]
            if worker { headers.append(("Service-Worker-Allowed", "/")) }
            return HTTPResponse(status: 200, headers: headers, body: body)
        }
        switch path {
        case "/app.css": return file("text/css; charset=utf-8", Array(WebAssets.css.utf8))
        case "/app.js": return file("text/javascript; charset=utf-8", Array(WebAssets.js.utf8))
        case "/sw.js": return file("text/javascript; charset=utf-8", Array(WebAssets.serviceWorker.utf8), worker: true)
        case "/manifest.webmanifest": return file("application/manifest+json", Array(WebAssets.manifest.utf8))
        case "/icon-192.png": return file("image/png", Array(Data(base64Encoded: WebIcons.png192) ?? Data()))
        case "/icon-512.png": return file("image/png", Array(Data(base64Encoded: WebIcons.png512) ?? Data()))
        default: return nil
        }
    }

    /// A record's state line: the live media state from the journal when there is a job.
    func state(of record: ShareRecord) -> (text: String, live: Bool) {
        switch record.status {
        case .saved:
            if let expires = record.expires, expires <= clock() { return ("expired: \(record.url ?? "")", false) }
            let until = record.expires.map { ", until \(WebPage.time($0))" } ?? ""
            return ("saved: \(record.url ?? "")\(until)", false)
        case .failed: return ("failed: \(record.error ?? record.message)", false)
        case .queued:
            guard let job = record.job, let state = runner.services.jobs?.state(of: job) else { return ("queued", record.job != nil) }
            return (state.summary, !["imported", "duplicate", "failed"].contains(state.state))
        }
    }

    private func home(_ credential: Credential) -> HTTPResponse {
        let e = WebPage.e
        let base = publicURL.get()
        let items = runner.history.recent.map { record -> String in
            let (text, live) = state(of: record)
            let link = record.url.map { " <a href=\"\(e($0))\">open</a>" } ?? ""
            return "<li data-share=\"\(e(record.id))\"\(live ? " data-live" : "")><strong>\(e(record.title ?? record.source ?? "—"))</strong>"
                + "<br><span class=\"state\">\(e(text))</span>\(link)</li>"
        }.joined()
        let bookmarklet = "javascript:location.href='\(base)/share?url='+encodeURIComponent(location.href)"
            + "+'&title='+encodeURIComponent(document.title)"
        let body = """
            <h1>Share a link</h1>
            <form method="post" action="/share" id="share-form">
            <label for="url">Link</label><input type="url" id="url" name="url" placeholder="https://…" required>
            <button type="submit">Share</button>
            </form>
            <h2>Recent shares</h2>
            <ul class="shares" id="recent">\(items.isEmpty ? "<li class=\"muted\">Nothing shared yet.</li>" : items)</ul>
            <h2>From other places</h2>
            <p>Drag this to your bookmarks bar, then click it on any page: <a class="bookmarklet" id="bookmarklet" href="\(e(bookmarklet))">Share to Piper</a></p>
            <p>On an iPhone: <a href="/shortcut">share with a Shortcut</a>.</p>
            <p class="muted">Signed in as \(e(credential.name)).</p>
            """
        return WebPage.render("Share", body, device: credential.name)
    }

    private func shares(_ credential: Credential) -> HTTPResponse {
        let list: [[String: Any]] = runner.history.recent.map { record in
            let (text, live) = state(of: record)
            return ["id": record.id, "status": record.status.rawValue, "state": text, "live": live,
                    "url": record.url ?? NSNull(), "title": record.title ?? NSNull(), "job": record.job ?? NSNull(),
                    "source": record.source ?? NSNull(), "error": record.error ?? NSNull()]
        }
        let body = (try? JSONSerialization.data(withJSONObject: ["shares": list], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                                    body: Array(body))
        response.device = credential.name
        return response
    }

    /// `POST /tokens` with `name`: a new bearer token, shown once (for a Shortcut or a script);
    /// only from Piper's own page or with a bearer token (`ShareAuth.mintingPost`).
    private func token(_ request: HTTPRequest) throws -> HTTPResponse {
        let credential: Credential
        switch try auth.mintingPost(request) {
        case .allowed(let allowed): credential = allowed
        case .refused(let refusal): return refusal
        }
        let fields = (try? ShareRoute.fields(of: request)) ?? [:]
        let (device, secret) = try auth.registry.createToken(name: fields["name"] ?? "Shortcut", now: clock())
        if WebPage.wantsJSON(request) {
            var response = HTTPResponse.json(200, ["name": device.name, "token": secret])
            response.device = credential.name
            return response
        }
        return ShortcutPage.render(publicURL: publicURL.get(), device: credential.name, newToken: (device.name, secret))
    }
}
