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
        // plaintext text serializes unescaped, so `</plaintext>…` becomes more text each time.
        if serialization.contains("<plaintext") { return true }
        // (A script that ended at EOF double-escaped, `<script><!--<script`, does settle: the
        // first serialized `</script>` becomes text, the next one closes the script.)
        return false
    }
}
