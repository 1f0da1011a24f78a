import Foundation
import HTML

/// What the sanitizer does with MathML, SVG and embeds, and how it counts what it removes.
extension HTMLSanitizer {
    /// Removed elements by kind, for the save answer and the log.
    struct Removals {
        private(set) var counts: [String: Int] = [:]
        mutating func add(_ kind: String) { counts[kind, default: 0] += 1 }
    }

    /// A MathML or SVG element met in the walk. Returns how to leave it (as `visit` does).
    static func visitForeign(_ element: Node, _ writer: inout SafeHTMLWriter, open: [Int32], settled: inout Bool,
                             removed: inout Removals) -> Entered? {
        let inMath = open.contains(SanitizerNames.math)
        switch element.namespace {
        case .svg:
            removed.add("svg")
            // Outside math, a visible placeholder; inside, an HTML element would not read back.
            if !inMath && element.localName == "svg" {
                if settled && RoundTrip.startTagMoves(SanitizerNames.span, open: open) { settled = false }
                writer.raw("<span>[figure omitted]</span>")
            }
            return nil
        case .mathml:
            let name = element.localName
            guard SanitizerPolicy.mathElements.contains(name), !isLaterSemanticsChild(element) else {
                removed.add("mathml")
                return nil
            }
            if name != "math", let parent = open.last, SanitizerNames.mathTokens.contains(parent) {
                // Would read back as an HTML element: keep the text only.
                settled = false
                return Entered(closer: nil)
            }
            if name == "math" && settled && RoundTrip.startTagMoves(SanitizerNames.math, open: open) { settled = false }
            var attributes: [(String, String)] = []
            for attribute in element.attributes where attribute.namespace == nil && SanitizerPolicy.mathAttributes.contains(attribute.name) {
                attributes.append((attribute.name, attribute.value))
            }
            writer.start(name, attributes)
            if element.firstChild == nil {
                writer.end(name)
                return nil
            }
            return Entered(closer: name, id: element.localNameID)
        default:
            return nil
        }
    }

    /// `semantics` keeps only its first element child (the presentation markup).
    private static func isLaterSemanticsChild(_ element: Node) -> Bool {
        guard let parent = element.parent, parent.namespace == .mathml, parent.localName == "semantics" else { return false }
        return element.previousElementSibling != nil
    }

    /// An iframe, embed, object or video with a `src`: a link to what it showed when that is an
    /// absolute http(s) URL (a scheme-relative `//host/…`, as embed codes are written, is taken
    /// as https), else nothing. True when the element was handled here.
    static func replaceEmbed(_ element: Node, _ writer: inout SafeHTMLWriter, open: [Int32], settled: inout Bool,
                             removed: inout Removals) -> Bool {
        let name = element.localName
        guard let attribute = SanitizerPolicy.embedSources[name] else { return false }
        let raw = element.getAttribute(attribute)
        if name == "video" && raw == nil { return false }      // <video> with <source>s stays a video
        removed.add(name)
        guard let raw else { return true }
        var href = URLPolicy.cleaned(raw)
        if href.hasPrefix("//") { href = "https:" + href }
        // URLPolicy's scheme set, not PiperCore's WebURL: the sanitizer builds with HTML alone
        // (the fuzz harness compiles it so).
        guard let url = URL(string: href), let scheme = url.scheme?.lowercased(), URLPolicy.mediaSchemes.contains(scheme),
              let host = url.host, !host.isEmpty else { return true }
        let bare = host.lowercased().hasPrefix("www.") ? String(host.lowercased().dropFirst(4)) : host.lowercased()
        let isVideo = name == "video" || SanitizerPolicy.videoHosts.contains(bare)
        let label = isVideo ? "▶ Video: " + URLDisplay.shortened(href) : "Embedded content: " + bare
        if settled && RoundTrip.startTagMoves(SanitizerNames.a, open: open) { settled = false }
        writer.start("a", [("href", href)])
        writer.text(label)
        writer.end("a")
        return true
    }
}
