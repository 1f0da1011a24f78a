import Testing
@testable import HTML

/// Inputs found by the libFuzzer harnesses in `Fuzz/` (see `scripts/fuzz`), minimised and kept
/// here so the behaviour they pinned down stays put. Each case parses the input as a document,
/// then re-parses its own serialization until the serialization stops changing, and checks how
/// many re-parses that took (`nil`: it never settles, which the spec itself implies).
@Suite struct FuzzRegressionTests {
    struct Case: CustomStringConvertible, Sendable {
        let input: [UInt8]
        /// Re-parses until the serialization is a fixed point: 1 means parse/serialize is
        /// idempotent on the first serialization.
        let settlesAfter: Int?
        let why: String
        var description: String { why }

        init(_ input: String, settlesAfter: Int?, _ why: String) {
            self.input = Array(input.utf8)
            self.settlesAfter = settlesAfter
            self.why = why
        }

        init(bytes: [UInt8], settlesAfter: Int?, _ why: String) {
            self.input = bytes
            self.settlesAfter = settlesAfter
            self.why = why
        }
    }

    static let cases: [Case] = [
        Case("<p><table></p>", settlesAfter: 2,
             "quirks mode: </p> in a table makes a p inside the p, which markup cannot express"),
        Case("<plaintext><foo>", settlesAfter: nil,
             "plaintext text serializes unescaped, so </plaintext></body></html> becomes text on every re-parse"),
        Case("<!doctype html><template><plaintext>a</template>b", settlesAfter: nil,
             "plaintext inside template contents grows the same way"),
        Case("<form><table></form><form></table></form><b>e></form><b>", settlesAfter: 2,
             "a form nested in a form through a table is dropped on re-parse (the form element pointer is set)"),
        Case(bytes: Array("<".utf8) + [0] + Array("doctype html><form><table></form><form></tabloctype html><form><table></form><form></table></form><b>e></form><b>".utf8),
             settlesAfter: 3,
             "the first re-parse makes a nested form through a table, the second drops it (as found by the fuzzer)"),
        Case("<!doctype html><p>a<b>b<p>c</b>d", settlesAfter: 1,
             "adoption agency output is already expressible"),
        Case("<table><td>a<div>b</table>c", settlesAfter: 1,
             "implied table parts serialize explicitly"),
    ]

    static func serialize(_ document: Document) -> String {
        document.node.innerHTML
    }

    /// Number of re-parses until the serialization stops changing, or nil after `limit`.
    static func reparsesToFixedPoint(_ input: [UInt8], limit: Int = 6) -> Int? {
        var previous = serialize(Document.parse(bytes: input))
        for round in 1...limit {
            let next = serialize(Document.parse(previous))
            if next == previous { return round }
            previous = next
        }
        return nil
    }

    @Test(arguments: cases)
    func serializationSettles(_ testCase: Case) {
        let rounds = Self.reparsesToFixedPoint(testCase.input)
        #expect(rounds == testCase.settlesAfter, "\(testCase.why): first serialization \(Self.serialize(Document.parse(bytes: testCase.input)).debugDescription)")
    }
}
