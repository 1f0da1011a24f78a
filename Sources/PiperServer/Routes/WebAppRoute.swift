import Foundation

/// The installable web app: `/` (paste a link, recent shares with their live state, the
/// bookmarklet), `/api/shares`, `/shortcut` (the iOS Shortcut), `POST /tokens` (a bearer token
/// for a Shortcut, the owner's to make), and the public static files (manifest, worker, script, style, icons).
struct WebAppRoute: Sendable {
    let auth: ShareAuth
    let runner: ShareRunner
    let publicURL: LateValue
    let clock: @Sendable () -> Date
    /// The followed shows the home page lists.
    let follows: FollowRoute

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

    func home(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let e = WebPage.e
        let base = publicURL.get()
        let now = clock()
        let items = runner.history.recent.filter(credential.mayRead).map { record -> String in
            let state = ShareState(record, progress: progress(of: record), now: now)
            let link = record.url.map { " <a href=\"\(e($0))\">open</a>" } ?? ""
            // `data-following`: the share-state script (`/shares.js`) follows it in /api/shares.
            return "<li data-share=\"\(e(record.id))\"\(state.live ? " data-following" : "")><strong>\(e(record.title ?? record.source ?? "—"))</strong>"
                + "<br>\(state.html)\(link)</li>"
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
            <h2>Followed shows</h2>
            \(followedShows())
            <h2>More</h2>
            <p class="links"><a class="button" href="/follows" id="follows-link">Followed shows</a>
            <a class="button" href="/connect-x" id="connect-x-link">Connect your X account</a></p>
            <p class="muted">Signed in as \(e(credential.name)).</p>
            """
        return WebPage.render("Share", body, device: credential.name)
    }

    /// The followed shows with their state; a store that cannot answer leaves the rest of the
    /// page working and says so.
    private func followedShows() -> String {
        do {
            return FollowedShow.list(try follows.shows(), id: "followed")
        } catch {
            return "<p class=\"error\" id=\"followed-error\">Cannot list the followed shows: \(WebPage.e("\(error)"))</p>"
        }
    }

    func shares(_ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let now = clock()
        let list: [[String: Any]] = runner.history.recent.filter(credential.mayRead).map { record in
            let state = ShareState(record, progress: progress(of: record), now: now)
            return state.json.merging(["id": record.id, "url": record.url ?? NSNull(), "title": record.title ?? NSNull(),
                                       "job": record.job ?? NSNull(), "source": record.source ?? NSNull()]) { $1 }
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
