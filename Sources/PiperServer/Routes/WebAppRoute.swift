import Foundation

/// The installable web app: `/` (paste a link, recent shares with their live state, the
/// bookmarklet), `/api/shares`, `/shortcut` (the iOS Shortcut), `POST /tokens` (a bearer token
/// for a Shortcut, the owner's to make), and the public static files (manifest, worker, script, style, icons).
struct WebAppRoute: Sendable {
    let auth: ShareAuth
    let runner: ShareRunner
    let publicURL: LateValue
    let clock: @Sendable () -> Date

    /// The public static files, served to anyone (`WebAssets`, made from Web/app by
    /// scripts/gen-web-assets; the library page's own two are routed with the library).
    static let assetPaths = WebAssets.served.keys.filter { !$0.hasPrefix("/library.") }.sorted() + ["/icon-192.png", "/icon-512.png"]

    func shortcut(_ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        return ShortcutPage.render(publicURL: publicURL.get(), device: credential.name, mayMint: credential.isOwner)
    }

    static func asset(_ path: String) -> HTTPResponse? {
        func file(_ type: String, _ body: [UInt8], worker: Bool = false) -> HTTPResponse {
            var headers: [(name: String, value: String)] = [("Content-Type", type), ("Cache-Control", "no-cache")]
            if worker { headers.append(("Service-Worker-Allowed", "/")) }
            return HTTPResponse(status: 200, headers: headers, body: body)
        }
        switch path {
        case "/icon-192.png": return file("image/png", Array(Data(base64Encoded: WebIcons.png192) ?? Data()))
        case "/icon-512.png": return file("image/png", Array(Data(base64Encoded: WebIcons.png512) ?? Data()))
        default:
            guard let asset = WebAssets.served[path] else { return nil }
            return file(asset.type, Array(asset.body.utf8), worker: path == "/sw.js")
        }
    }

    /// Where a record's media job stands (`ShareRunner.progress`), asked once per record.
    func progress(of record: ShareRecord) -> MediaJobState? {
        record.status == .queued ? runner.progress(of: record) : nil
    }

    /// A record's state line: the live media state (`progress`) when there is a job.
    func state(of record: ShareRecord, progress: MediaJobState?) -> (text: String, live: Bool) {
        switch record.status {
        case .saved:
            if let expires = record.expires, expires <= clock() { return ("expired: \(record.url ?? "")", false) }
            let until = record.expires.map { ", until \(WebPage.time($0))" } ?? ""
            return ("saved: \(record.url ?? "")\(until)", false)
        case .failed: return ("failed: \(record.error ?? record.message)", false)
        case .duplicate: return ("duplicate: already in the library as \(record.libraryPath ?? "")", false)
        case .queued:
            guard let state = progress else { return ("queued", record.job != nil) }
            return (state.summary, state.isLive)
        }
    }

    func home(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let e = WebPage.e
        let base = publicURL.get()
        let items = runner.history.recent.filter(credential.mayRead).map { record -> String in
            let (text, live) = state(of: record, progress: progress(of: record))
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
            <section id="waiting-section" hidden><h2>Waiting on this phone</h2>
            <p class="muted">Kept here while Piper was unreachable; they are sent when it is back.</p>
            <ul class="shares" id="waiting"></ul></section>
            <h2>Recent shares</h2>
            <ul class="shares" id="recent">\(items.isEmpty ? "<li class=\"muted\">Nothing shared yet.</li>" : items)</ul>
            <h2>From other places</h2>
            \(WebPage.isPhone(request)
                ? "<p id=\"phone-ways\">From any app: its Share button, then Piper (once the app is installed). "
                    + "On an iPhone: <a href=\"/shortcut\">share with a Shortcut</a>.</p>"
                : "<p>Drag this to your bookmarks bar, then click it on any page: <a class=\"bookmarklet\" id=\"bookmarklet\" href=\"\(e(bookmarklet))\">Share to Piper</a></p>"
                    + "<p>On an iPhone: <a href=\"/shortcut\">share with a Shortcut</a>.</p>")
            \(WebPage.shareSheetNote(secure: auth.isSecureContext(request)))
            <p class="muted">Signed in as \(e(credential.name)).</p>
            """
        return WebPage.render("Share", body, device: credential.name)
    }

    /// Where a share stands now: its own status, and for a media job the journal's word
    /// (queued, downloading, imported with the library path, duplicate, failed with the reason,
    /// cancelled), so `status` follows the job to its end.
    func liveStatus(of record: ShareRecord, progress: MediaJobState?) -> (status: String, libraryPath: String?, error: String?) {
        guard record.status == .queued, let job = progress else {
            return (record.status.rawValue, record.libraryPath, record.error)
        }
        switch job.state {
        case .queued: return ("queued", nil, nil)
        case .downloading, .downloaded, .landed: return ("downloading", nil, nil)
        case .imported, .duplicate: return (job.state.rawValue, job.libraryPath, nil)
        case .failed: return ("failed", nil, job.reason ?? "no reason recorded")
        case .cancelled: return ("cancelled", nil, nil)
        }
    }

    func shares(_ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let list: [[String: Any]] = runner.history.recent.filter(credential.mayRead).map { record in
            let job = progress(of: record)
            let (text, live) = state(of: record, progress: job)
            let now = liveStatus(of: record, progress: job)
            return ["id": record.id, "status": now.status, "state": text, "live": live,
                    "url": record.url ?? NSNull(), "title": record.title ?? NSNull(), "job": record.job ?? NSNull(),
                    "source": record.source ?? NSNull(), "error": now.error ?? NSNull(), "libraryPath": now.libraryPath ?? NSNull()]
        }
        let body = (try? JSONSerialization.data(withJSONObject: ["shares": list], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                                    body: Array(body))
        response.device = credential.name
        return response
    }

    /// `POST /tokens` with `name`: a new share-only bearer token, shown once (for a Shortcut or a
    /// script); only the owner's, from Piper's own page (`ShareAuth.mintingPost`, `.owner`).
    func token(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let fields = (try? ShareRoute.fields(of: request)) ?? [:]
        let made: (Device, String)
        do {
            made = try auth.registry.createToken(name: fields["name"] ?? "Shortcut", now: clock())
        } catch let error as DeviceNameError {
            throw HTTPError(400, error.description)
        }
        let (device, secret) = made
        if WebPage.wantsJSON(request) {
            var response = HTTPResponse.json(200, ["name": device.name, "token": secret])
            response.device = credential.name
            return response
        }
        return ShortcutPage.render(publicURL: publicURL.get(), device: credential.name, newToken: (device.name, secret))
    }
}
