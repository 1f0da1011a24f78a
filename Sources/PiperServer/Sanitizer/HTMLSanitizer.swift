/// Turns submitted article HTML into markup that is safe to serve.
enum HTMLSanitizer {
    static func sanitize(_ html: String) -> String {
        // Placeholder until the DOM-based allow-list lands: keep the text, drop all markup.
        "<p>" + HTMLEscape.escape(html) + "</p>"
    }
}
