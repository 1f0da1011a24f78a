// Fuzz harness: parse bytes as a document, serialize, re-parse the serialization and check
// that the serialization settles. Built by scripts/fuzz together with Sources/HTML (same
// module, so no import of HTML).
//
// Parse/serialize is not idempotent for every input: the parser builds trees that markup
// cannot express (a `p` inside a `p` made by `</p>` in a table in quirks mode, foster-parented
// content, adoption-agency clones, a `form` nested in a `form` through a table, …), so
// `parse(serialize(t))` can differ from `t`, and a normalised tree can normalise once more
// (the nested form appears after the first round and is dropped in the second). The harness
// checks the property that must hold: re-parsing reaches a fixed point within a few rounds
// and never keeps changing (growing). FUZZ_STRICT=1 demands s1 == s2 instead, to explore
// which inputs normalise.
// Inputs matched by `NeverSettles` are skipped (plaintext): its serialized end tags become
// more text on every re-parse (§ 13.3).

import Foundation

let strictRoundTrip = ProcessInfo.processInfo.environment["FUZZ_STRICT"] != nil
let maxNormalisations = 4

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var previous = Document.parse(bytes: bytes).node.innerHTML
    if NeverSettles.matches(previous) { return 0 }
    for round in 1...maxNormalisations {
        let next = Document.parse(previous).node.innerHTML
        if next == previous { return 0 }
        if strictRoundTrip { FuzzReport.mismatch("document round trip", previous, next) }
        if round == maxNormalisations {
            FuzzReport.mismatch("document serialization still changing after \(round) re-parses", previous, next)
        }
        previous = next
    }
    return 0
}
