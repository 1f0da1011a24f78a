/// The small page a browser gets for an expired or unknown saved copy (404), with a link to the
/// original while the store still remembers it. Same CSP as the reader page; never cached.
enum ExpiredPage {
    static let heading = "This saved copy has expired"

    static func headers() -> [(name: String, value: String)] {
        var headers = ReaderPage.headers(maxAge: 0)
        headers.removeAll { $0.name == "Cache-Control" }
        headers.append(("Cache-Control", "no-store"))
        return headers
    }

    static func render(sourceURL: String?) -> [UInt8] {
        var body = "<p>Saved copies live for a limited time, and this one is gone (or the link is mistyped).</p>\n"
        if let sourceURL {
            body += "<p class=\"original\">Original: " + ReaderPage.link(sourceURL) + "</p>\n"
        }
        return notice(title: heading, body: body, footer: "Saved by Piper")
    }

    /// The small page both this and `ErrorPage` are: the reader's style, a heading, `body`
    /// (already escaped HTML), a footer line.
    static func notice(title: String, body: String, footer: String) -> [UInt8] {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        html += "<meta name=\"robots\" content=\"noindex\">\n"
        html += "<title>\(title)</title>\n<style>\(ReaderStyle.css)</style>\n"
        html += "</head><body><main><article>\n<header class=\"saved\">\n<h1>\(title)</h1>\n</header>\n"
        html += body
        html += "</article>\n<footer class=\"saved\"><p>\(footer)</p></footer>\n</main></body></html>\n"
        return Array(html.utf8)
    }
}

/// Which of HTML and JSON a client would rather have, from its `Accept` header. HTML only when
/// `text/html` is asked for (explicitly or as `text/*`) at least as strongly as JSON; `*/*`
/// alone, no header at all, and API clients get JSON, as before.
enum AcceptNegotiation {
    static func prefersHTML(_ accept: String?) -> Bool {
        guard let accept else { return false }
        var quality: [String: Double] = [:]
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            quality[type] = max(quality[type] ?? 0, q)
        }
        let html = quality["text/html"] ?? quality["text/*"] ?? 0
        let json = quality["application/json"] ?? quality["application/*"] ?? quality["*/*"] ?? 0
        return html > 0 && html >= json
    }
}
