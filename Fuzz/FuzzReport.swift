// Shared by the fuzz harnesses: write both sides of a mismatch to stderr and abort so
// libFuzzer keeps the input as a crash artifact.
import Foundation

enum FuzzReport {
    static func mismatch(_ what: String, _ first: String, _ second: String) -> Never {
        let text = "FUZZ MISMATCH (\(what))\n--- first:\n\(first.debugDescription)\n--- second:\n\(second.debugDescription)\n"
        FileHandle.standardError.write(Data(text.utf8))
        fatalError("fuzz mismatch: \(what)")
    }
}

/// Serializations the spec itself never lets settle under re-parsing; the round-trip
/// harnesses skip them (checked on the first serialization, over-approximated by text).
enum NeverSettles {
    static func matches(_ serialization: String) -> Bool {
        let lower = serialization.lowercased()
        // plaintext text serializes unescaped, so `</plaintext>…` becomes more text each time.
        if lower.contains("<plaintext") { return true }
        // A script that ended at EOF inside `<!--<script` (script data double escaped) keeps
        // its serialized `</script>` as text: one more `</script>` per re-parse.
        if lower.contains("<script"), lower.contains("<!--") { return true }
        return false
    }
}
