import Foundation

/// The pairing link from `piper pair`: `GET /pair?code=…` only shows a confirmation page (chat
/// apps fetch links for their previews, and that must not use the code up); the page's button
/// sends `POST /pair`, which redeems the one-time code, sets the device cookie and lists the
/// paired devices. The POST must come from this site (`ShareAuth.refuseCrossSite`), and the
/// code itself is the secret a forged form would lack. A used, expired or unknown code is a 401
/// with the way out.
struct PairRoute: Sendable {
    let auth: ShareAuth
    let clock: @Sendable () -> Date

    static let unusable = HTTPError(401, "This pairing link was already used or has expired; run 'piper pair' again")

    /// The confirmation page: the code in a hidden field, the device's name to edit, one button.
    func confirmation(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let code = request.query["code"], !code.isEmpty, try auth.registry.pairingIsPending(code, now: clock()) else {
            return WebPage.failure(Self.unusable, heading: "Pairing failed")
        }
        let e = WebPage.e
        let name = request.query["name"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.name(from: request)
        let body = """
            <h1 id="outcome">Pair this browser with Piper?</h1>
            <p>Once paired, this browser can share links and files to this server.</p>
            <form method="post" action="/pair" id="pair-form">
            <input type="hidden" name="code" value="\(e(code))">
            <label for="name">Name of this device</label><input type="text" id="name" name="name" value="\(e(name))" maxlength="60">
            <button type="submit" id="pair">Pair this browser</button>
            </form>
            <p class="muted">The link works once and for 10 minutes.</p>
            \(auth.isSecureContext(request) ? "" : WebPage.shareSheetNote(secure: false))
            """
        return WebPage.render("Pair", body)
    }

    /// Redeems the code (the table's `sameSiteSecret` rule refused other sites already).
    func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        let fields = (try? ShareRoute.fields(of: request)) ?? [:]
        let name = fields["name"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        let redeemed: (Device, String)?
        do {
            redeemed = try fields["code"].flatMap { $0.isEmpty ? nil : $0 }
                .flatMap { try auth.registry.redeemPairing($0, name: name ?? Self.name(from: request), now: clock()) }
        } catch let error as DeviceNameError {   // the code is not used up: the form can be sent again
            let refusal = HTTPError(400, error.description)
            return WebPage.wantsJSON(request) ? .error(refusal) : WebPage.failure(refusal, heading: "Pairing failed")
        }
        guard let (device, secret) = redeemed else {
            return WebPage.wantsJSON(request) ? .error(Self.unusable) : WebPage.failure(Self.unusable, heading: "Pairing failed")
        }
        let cookie = ("Set-Cookie", auth.deviceCookie(secret, for: request))
        if WebPage.wantsJSON(request) {
            var response = HTTPResponse.json(200, ["device": device.name])
            response.headers.append(cookie)
            response.device = device.name
            return response
        }
        let e = WebPage.e
        // Only the owner's browser is shown every device; a share-only one is told what it may do.
        let devices = device.scope == .owner ? (try? auth.registry.devices()) ?? [] : []
        let list = devices.map { "<li>\(e($0.name)) <span class=\"muted\">(\($0.kind), \($0.scope == .owner ? "owner" : "shares only"), "
            + "since \(WebPage.timeHTML($0.created)))</span></li>" }.joined()
        let body = """
            <h1 id="outcome">Paired as \(e(device.name))</h1>
            <p>\(device.scope == .owner ? "This browser can now share to Piper, and act as its owner."
                : "This browser can now share to Piper (and see its own shares).")</p>
            \(WebPage.shareSheetNote(secure: auth.isSecureContext(request)))
            \(devices.isEmpty ? "" : "<h2>Devices</h2><ul id=\"devices\">\(list)</ul>")
            <p><a href="/">Start sharing</a></p>
            """
        return WebPage.render("Paired", body, extraHeaders: [cookie], device: device.name)
    }

    /// "Chrome on Android", "Safari on iPhone", … from the User-Agent.
    static func name(from request: HTTPRequest) -> String {
        let agent = request.header("User-Agent") ?? ""
        let system = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Mac OS X", "Mac"), ("Windows", "Windows"),
                      ("Linux", "Linux")].first { agent.contains($0.0) }?.1
        let browser = [("Firefox/", "Firefox"), ("Edg/", "Edge"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
            .first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case let (b?, s?): return "\(b) on \(s)"
        case let (b?, nil): return b
        case let (nil, s?): return s
        default: return "browser"
        }
    }
}
