import Foundation

/// `GET /pair?code=…` redeems a one-time pairing code (from `piper pair`): sets the device
/// cookie and lists the paired devices. A used, expired or unknown code is a 401 with the way out.
struct PairRoute: HTTPResponder {
    let auth: ShareAuth
    let clock: @Sendable () -> Date

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "GET" else { throw HTTPError.methodNotAllowed(["GET"]) }
        guard let code = request.query["code"], !code.isEmpty,
              let (device, secret) = try auth.registry.redeemPairing(code, name: request.query["name"] ?? Self.name(from: request),
                                                                    now: clock()) else {
            return WebPage.failure(HTTPError(401, "This pairing link was already used or has expired; run 'piper pair' again"))
        }
        let e = WebPage.e
        let devices = (try? auth.registry.devices()) ?? []
        let list = devices.map { "<li>\(e($0.name)) <span class=\"muted\">(\($0.kind), since \(e(WebPage.time($0.created))))</span></li>" }
            .joined()
        let body = """
            <h1 id="outcome">Paired as \(e(device.name))</h1>
            <p>This browser can now share to Piper. Install the app from the browser's menu to see Piper in the share sheet.</p>
            <h2>Devices</h2><ul id="devices">\(list)</ul>
            <p><a href="/">Start sharing</a></p>
            """
        return WebPage.render("Paired", body, extraHeaders: [("Set-Cookie", auth.deviceCookie(secret))], device: device.name)
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
