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
