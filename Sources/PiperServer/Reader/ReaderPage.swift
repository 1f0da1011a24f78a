import Foundation

/// Renders a saved article as a complete, script-free HTML5 reader page, and the security
/// headers that go with it.
enum ReaderPage {
    /// No script at all; images and media from the web; only our own inline style (by hash).
    static let contentSecurityPolicy = [
        "default-src 'none'",
        "img-src http: https: data:",
        "media-src http: https:",
        "style-src \(ReaderStyle.cspHashSource)",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static func headers(maxAge: Int) -> [(name: String, value: String)] {
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cache-Control", "public, max-age=\(max(0, maxAge))"),
        ]
    }

    /// The page bytes. `article.content` is already sanitized; the title is escaped here.
    static func render(_ article: SavedArticle, url: String) -> [UInt8] {
        let title = HTMLEscape.escape(article.title)
        var html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        html += "<title>\(title)</title>\n"
        html += "<meta property=\"og:title\" content=\"\(title)\">\n"
        html += "<meta property=\"og:type\" content=\"article\">\n"
        html += "<meta property=\"og:url\" content=\"\(HTMLEscape.escape(url))\">\n"
        html += "<style>\(ReaderStyle.css)</style>\n"
        html += "</head><body><main><article>\n<h1>\(title)</h1>\n"
        html += article.content
        html += "\n</article></main></body></html>\n"
        return Array(html.utf8)
    }
}
