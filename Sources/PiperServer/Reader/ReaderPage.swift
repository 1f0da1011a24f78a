import Foundation
import PiperCore

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
            // A saved copy is someone's private reading, and a copy of someone else's page.
            ("X-Robots-Tag", "noindex"),
            ("Cache-Control", "public, max-age=\(max(0, maxAge))"),
        ]
    }

    /// The page bytes. `article.content` is already sanitized; everything else is escaped here.
    static func render(_ article: SavedArticle, url: String) -> [UInt8] {
        let title = HTMLEscape.escape(article.title)
        let source = article.metadata.sourceURL.map(HTMLEscape.escape)
        var html = "<!DOCTYPE html>\n" + htmlStart(article.metadata) + "<head><meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        html += "<meta name=\"robots\" content=\"noindex\">\n"
        html += "<title>\(title)</title>\n"
        if let source { html += "<link rel=\"canonical\" href=\"\(source)\">\n" }
        html += "<meta property=\"og:title\" content=\"\(title)\">\n"
        html += "<meta property=\"og:type\" content=\"article\">\n"
        html += "<meta property=\"og:url\" content=\"\(source ?? HTMLEscape.escape(url))\">\n"
        if let site = article.metadata.siteName {
            html += "<meta property=\"og:site_name\" content=\"\(HTMLEscape.escape(site))\">\n"
        }
        if let excerpt = article.metadata.excerpt {
            html += "<meta name=\"description\" content=\"\(HTMLEscape.escape(excerpt))\">\n"
        }
        if let byline = article.metadata.byline {
            html += "<meta name=\"author\" content=\"\(HTMLEscape.escape(byline))\">\n"
        }
        if let published = article.metadata.publishedTime {
            html += "<meta property=\"article:published_time\" content=\"\(HTMLEscape.escape(published))\">\n"
        }
        html += "<style>\(ReaderStyle.css)</style>\n"
        // Read-later services and extractors read the article alone: the page's own lines
        // (title, byline, the original's link, the expiry) stand outside `<article>`, marked
        // with Instapaper's `instapaper_ignore`, and the article's body carries
        // `instapaper_body`; what they say is also in the head's `<meta>` and canonical link.
        html += "</head><body><main>\n"
        html += header(article)
        // schema.org's microdata says the same to the extractors that read it (readability-lxml
        // takes an `articleBody` box of few links as the article).
        html += "<article itemscope itemtype=\"https://schema.org/Article\">"
        html += "<div class=\"instapaper_body\" itemprop=\"articleBody\">\n"
        html += ReaderColumn.flatten(article.content)
        html += "\n</div></article>\n" + footer(article) + "</main></body></html>\n"
        return Array(html.utf8)
    }

    /// `<html>` with the article's language and direction when it gave them.
    static func htmlStart(_ metadata: ArticleMetadata) -> String {
        var tag = "<html"
        if let lang = metadata.lang { tag += " lang=\"\(HTMLEscape.escape(lang))\"" }
        if let dir = metadata.dir { tag += " dir=\"\(HTMLEscape.escape(dir))\"" }
        return tag + ">"
    }
}
