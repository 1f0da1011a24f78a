// Fuzz harness: parse bytes as a document, serialize, re-parse the serialization and check
// that the second serialization equals the first (parse/serialize idempotence).
// Built by scripts/fuzz together with Sources/HTML (same module, so no import).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first = Document.parse(bytes: bytes)
    let once = first.node.innerHTML
    let second = Document.parse(once)
    let twice = second.node.innerHTML
    if once != twice {
        FuzzReport.mismatch("document round trip", once, twice)
    }
    return 0
}
