// Fuzz harness: the HTML fragment parsing algorithm with a context element chosen by the
// first byte. Parses the rest, serializes the fragment, then re-parses the serialization in
// the same context until it settles; it must settle within a few rounds (see
// Fuzz/document/main.swift for why one round is not always enough). Fragments add one more
// inherent class: in a foreign context (`math annotation-xml`, `svg path`, …) a tag that
// followed an open HTML element is HTML the first time but, after the serialization closes
// that element, is parsed as foreign content (the adjusted current node is the context).
// Raw-text and RCDATA contexts serialize their text as markup, so they check no round trip.

import Foundation

let strictRoundTrip = ProcessInfo.processInfo.environment["FUZZ_STRICT"] != nil
let maxNormalisations = 4

let fragmentContexts = [
    "div", "body", "html", "head", "table", "tbody", "tr", "td", "select", "template",
    "textarea", "title", "style", "script", "xmp", "iframe", "noscript", "plaintext",
    "frameset", "colgroup", "caption", "ul", "p", "a", "svg svg", "svg foreignObject",
    "svg desc", "svg path", "math math", "math mi", "math annotation-xml", "option",
]

let rawTextContexts: Set = ["textarea", "title", "style", "script", "xmp", "iframe", "noscript", "plaintext"]

func serializeFragment(_ html: String, _ context: String) -> String {
    let (document, fragment) = Document.parseFragment(html, context: context)
    return withExtendedLifetime(document) { fragment.innerHTML }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFragment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let context = fragmentContexts[Int(data[0]) % fragmentContexts.count]
    let html = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    var previous = serializeFragment(html, context)
    if rawTextContexts.contains(context) || NeverSettles.matches(previous) { return 0 }
    for round in 1...maxNormalisations {
        let next = serializeFragment(previous, context)
        if next == previous { return 0 }
        if strictRoundTrip { FuzzReport.mismatch("fragment round trip in <\(context)>", previous, next) }
        if round == maxNormalisations {
            FuzzReport.mismatch("fragment in <\(context)> still changing after \(round) re-parses", previous, next)
        }
        previous = next
    }
    return 0
}
