
/// Turns submitted article HTML into markup that is safe to serve: parse it as a fragment in a
/// `<div>` with our HTML parser, then write back only what `SanitizerPolicy` allows. The output
/// is produced by our own writer (never by copying input), so it contains only allowed tags,
/// allowed attributes with escaped values, and escaped text: no raw-text elements, no foreign
/// content, no comments, hence nothing a browser could parse differently.
enum HTMLSanitizer {
    static func sanitize(_ html: String) -> String {
        "<p>" + HTMLEscape.escape(html) + "</p>"   // TEMPORARY until the parser lands
    }
}
/// Writes sanitized HTML: names come from the allow-list, text and values are always escaped.
struct SafeHTMLWriter {
    private(set) var output = ""

    mutating func start(_ name: String, _ attributes: [(String, String)]) {
        output += "<" + name
        for (key, value) in attributes {
            output += value.isEmpty && key == "controls" ? " controls" : " \(key)=\"\(HTMLEscape.escape(value))\""
        }
        output += ">"
    }

    mutating func end(_ name: String) { output += "</\(name)>" }
    mutating func text(_ text: String) { output += HTMLEscape.escape(text) }
    mutating func raw(_ safe: String) { output += safe }
}
