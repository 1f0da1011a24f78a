// Shared by the fuzz harnesses: write both sides of a mismatch to stderr and abort so
// libFuzzer keeps the input as a crash artifact.
import Foundation

enum FuzzReport {
    static func mismatch(_ what: String, _ first: String, _ second: String) -> Never {
        let a = Array(first.utf8), b = Array(second.utf8)
        var at = 0
        while at < a.count, at < b.count, a[at] == b[at] { at += 1 }
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self).debugDescription
        }
        let text = """
            FUZZ MISMATCH (\(what))
            --- first difference at byte \(at):
            \(around(a))
            \(around(b))
            --- first:
            \(first.debugDescription)
            --- second:
            \(second.debugDescription)

            """
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
