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
        // A script whose text is double-escaped (`<script><!--<script`) at EOF: its serialized
        // `</script>` only leaves the double escape and becomes text, and a later `<script` in
        // that text enters it again, so each round can add another `</script>…` (§ 13.2.5.20–27).
        // Some such inputs settle after a round, some grow forever; all are skipped.
        let lower = serialization.lowercased()
        if let comment = lower.range(of: "<!--"), lower[..<comment.lowerBound].contains("<script"),
           lower[comment.upperBound...].contains("<script") {
            return true
        }
        return false
    }
}
