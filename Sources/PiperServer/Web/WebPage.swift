import Foundation

/// The web app's pages: one layout, the app's own stylesheet and script (same-origin files, so
/// the CSP needs no inline script or style), and escaping for everything interpolated.
enum WebPage {
    /// No inline script or style anywhere; scripts, styles, the manifest and the worker come
    /// from this origin only; forms post only here.
    static let csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static func headers(_ type: String = "text/html; charset=utf-8") -> [(name: String, value: String)] {
        [("Content-Type", type), ("Content-Security-Policy", csp), ("Cache-Control", "no-store"),
         ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY")]
    }

    /// A whole page: `body` is HTML already escaped by the caller.
    static func render(_ title: String, _ body: String, status: Int = 200, extraHeaders: [(name: String, value: String)] = [],
                       device: String? = nil) -> HTTPResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title)) — Piper</title>
            <link rel="manifest" href="/manifest.webmanifest">
            <link rel="icon" href="/icon-192.png" type="image/png">
            <link rel="stylesheet" href="/app.css">
            <script src="/db.js" defer></script>
            <script src="/app.js" defer></script>
            <script src="/shares.js" defer></script>
            </head><body><main>
            <header><a href="/" class="brand">Piper</a> · <a href="/library">Library</a></header>
            \(body)
            </main></body></html>
            """
        var response = HTTPResponse(status: status, headers: headers() + extraHeaders, body: Array(html.utf8))
        response.device = device
        return response
    }

    /// A failure as a page: the status and the sentence, nothing silent. The heading says what
    /// did not happen: "Not paired" for a missing credential, else `heading`.
    /// `kept`: what the refused request carried (a shared link), shown so it is not lost.
    static func failure(_ error: HTTPError, heading: String = "Not shared", kept: [String] = [], device: String? = nil) -> HTTPResponse {
        let hint = error.status == 401 && !error.message.contains("piper devices token")
            ? "<p>On the server, run <code>piper pair</code> and open the link it prints on this device.</p>" : ""
        let title = error.status == 401 && heading == "Not shared" && kept.isEmpty ? "Not paired" : heading
        let shown = kept.isEmpty ? "" : "<p>What you shared, to share again once this is fixed:</p><ul id=\"kept\">"
            + kept.map { "<li>\(e($0))</li>" }.joined() + "</ul>"
        // A person at a phone is told how to pair it (the hint), not which header a script sends.
        let message = error.status == 401 && error.message == ShareAuth.unpaired ? "This browser is not paired with Piper yet" : error.message
        return render(title, "<h1>\(e(title))</h1><p class=\"error\" id=\"reason\">\(e(message))</p>\(hint)\(shown)",
                      status: error.status, extraHeaders: error.headers.map { ($0.name, $0.value) }, device: device)
    }

    /// Any failure a route threw, as a page for a browser: its heading says what kind it is
    /// (`heading(for:)`); an error that is not an `HTTPError` is a 500 that reveals nothing.
    static func page(for error: any Error) -> HTTPResponse {
        let http = error as? HTTPError ?? .internalError
        return failure(http, heading: heading(for: http.status))
    }

    /// A failure page's heading by its status.
    static func heading(for status: Int) -> String {
        switch status {
        case 401: return "Not paired"
        case 403: return "Not allowed"
        case 404: return "Not found"
        case 405: return "Not possible here"
        case 410: return "Expired"
        case 413: return "Too large"
        case 429: return "Too many requests"
        case 500...: return "Something went wrong"
        default: return "Not done"
        }
    }

    /// What a page says about the share sheet: how to get Piper into it in a secure context
    /// (HTTPS, or loopback), and why it cannot appear there otherwise. No install advice where
    /// install cannot work.
    static func shareSheetNote(secure: Bool) -> String {
        secure
            ? "<p id=\"install-note\">Install the app from the browser's menu to see Piper in the share sheet.</p>"
            : "<p class=\"notice\" id=\"https-notice\">Piper can't appear in the share sheet over http: put piper serve behind HTTPS "
                + "(see “A phone” in Piper's README). This page and the bookmarklet work as they are.</p>"
    }

    /// A phone's browser (by its User-Agent): offered the share sheet and the Shortcut, not a
    /// bookmarks bar it does not have.
    static func isPhone(_ request: HTTPRequest) -> Bool {
        let agent = request.header("User-Agent") ?? ""
        return ["Mobile", "Android", "iPhone", "iPad"].contains { agent.contains($0) }
    }

    /// Whether the client wants JSON rather than a page: browsers ask for text/html, scripts
    /// and Shortcuts don't (or send JSON).
    static func wantsJSON(_ request: HTTPRequest) -> Bool {
        if request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true { return true }
        return !(request.header("Accept")?.lowercased().contains("text/html") ?? false)
    }

    static func e(_ text: String) -> String { HTMLEscape.escape(text) }

    /// A time as a page shows it: `time(date)` inside `<time datetime>`, which the pages' script
    /// (`/shares.js`) rewrites in the device's own time zone.
    static func timeHTML(_ date: Date) -> String {
        "<time datetime=\"\(RequestLog.timestamp(date))\">\(e(time(date)))</time>"
    }

    /// `2025-01-31 14:32 UTC`.
    static func time(_ date: Date) -> String {
        String(RequestLog.timestamp(date).prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
