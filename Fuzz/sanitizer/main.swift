// Fuzz harness: the backend's HTML sanitizer (Sources/PiperServer/Sanitizer), compiled by
// scripts/fuzz into one module with the HTML sources. Checks that the output re-sanitizes to
// itself (the sanitizer runs further rounds itself when unwrapping left a tree markup cannot
// express: nested `a`, `li` in `li` or `h2` in `h2` once a wrapper is unwrapped, `rt` in `rt`),
// and that the output, read back by our parser the way a browser would read it, holds no script
// element, no foreign content, no `on*` attribute and no URL attribute with a `javascript:` scheme
// (tab and newlines removed and leading controls and spaces trimmed, as a browser's URL
// parser does).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let once = HTMLSanitizer.sanitize(input)
    if let problem = SanitizedCheck.problem(in: once) {
        FuzzReport.mismatch("unsafe sanitizer output: \(problem)", input, once)
    }
    let twice = HTMLSanitizer.sanitize(once)
    if twice != once { FuzzReport.mismatch("sanitizer is not idempotent", once, twice) }
    return 0
}

enum SanitizedCheck {
    /// Attributes a browser reads as URLs (only these can run a `javascript:` URL).
    static let urlAttributes: Set = [
        "href", "src", "srcset", "action", "formaction", "poster", "cite", "background", "longdesc",
        "data", "codebase", "ping", "lowsrc", "dynsrc", "xlink:href", "manifest", "icon",
    ]

    static func problem(in html: String) -> String? {
        let (document, fragment) = Document.parseFragment(html, context: "div")
        return withExtendedLifetime(document) {
            var stack: [Node] = []
            var child = fragment.firstChild
            while let node = child { stack.append(node); child = node.nextSibling }
            while let node = stack.popLast() {
                var next = node.firstChild
                while let c = next { stack.append(c); next = c.nextSibling }
                guard node.isElement else { continue }
                // Presentation MathML is kept (SanitizerPolicy.mathElements); SVG and anything
                // else foreign is not, nor a MathML element outside that list.
                if node.namespace == .mathml {
                    if !SanitizerPolicy.mathElements.contains(node.localName) { return "MathML element \(node.localName)" }
                } else if node.namespace != .html {
                    return "foreign element \(node.localName)"
                }
                if ["script", "style", "iframe", "object", "embed", "base", "meta", "form"].contains(node.localName) {
                    return "element \(node.localName)"
                }
                for attribute in node.attributes {
                    let name = attribute.name.lowercased()
                    if name.hasPrefix("on") { return "attribute \(name)" }
                    guard urlAttributes.contains(name) else { continue }
                    let urls = name == "srcset" ? attribute.value.split(separator: ",").map(String.init) : [attribute.value]
                    if urls.contains(where: isScriptURL) { return "\(name)=\(attribute.value.debugDescription)" }
                }
            }
            return nil
        }
    }

    /// A URL a browser would run as script: tab and newlines removed, leading controls and
    /// spaces trimmed, scheme compared case-insensitively.
    static func isScriptURL(_ raw: String) -> Bool {
        let kept = raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        let url = String(String.UnicodeScalarView(kept.drop { $0.value <= 0x20 })).lowercased()
        return url.hasPrefix("javascript:") || url.hasPrefix("vbscript:")
    }
}
