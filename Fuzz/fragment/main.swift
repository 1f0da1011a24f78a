// Fuzz harness: the HTML fragment parsing algorithm with a context element chosen by the
// first byte. Parses the rest, serializes the fragment, re-parses that serialization in the
// same context and checks the second serialization equals the first.

let fragmentContexts = [
    "div", "body", "html", "head", "table", "tbody", "tr", "td", "select", "template",
    "textarea", "title", "style", "script", "xmp", "iframe", "noscript", "plaintext",
    "frameset", "colgroup", "caption", "ul", "p", "a", "svg svg", "svg foreignObject",
    "svg desc", "svg path", "math math", "math mi", "math annotation-xml", "option",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFragment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let context = fragmentContexts[Int(data[0]) % fragmentContexts.count]
    let html = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let (document, fragment) = Document.parseFragment(html, context: context)
    let once = fragment.innerHTML
    let (again, fragment2) = Document.parseFragment(once, context: context)
    let twice = fragment2.innerHTML
    if FragmentRoundTrip.expected(context) && once != twice {
        FuzzReport.mismatch("fragment round trip in <\(context)>", once, twice)
    }
    withExtendedLifetime((document, again)) {}
    return 0
}

enum FragmentRoundTrip {
    /// Contexts whose serialization is not expected to re-parse to itself: raw-text and
    /// RCDATA contexts serialize text escaped or unescaped differently from how they parse.
    static func expected(_ context: String) -> Bool {
        !["textarea", "title", "style", "script", "xmp", "iframe", "noscript", "plaintext"].contains(context)
    }
}
