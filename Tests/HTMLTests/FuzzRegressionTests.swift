import PiperTestSupport
import Testing
import HTML

/// Inputs found by the libFuzzer harnesses in `Fuzz/` (see `scripts/fuzz`), minimised and kept
/// here so the behaviour they pinned down stays put. Each case parses the input as a document,
/// then re-parses its own serialization until the serialization stops changing, and checks how
/// many re-parses that took (`nil`: it never settles, which the spec itself implies).
@Suite(.ownThread) struct FuzzRegressionTests {
    struct Case: CustomStringConvertible, Sendable {
        let input: [UInt8]
        /// Re-parses until the serialization is a fixed point: 1 means parse/serialize is
        /// idempotent on the first serialization.
        let settlesAfter: Int?
        let why: String
        /// nil: parse as a document; else the fragment parsing context ("div", "math mi").
        var context: String? = nil
        var description: String { why }

        init(_ input: String, settlesAfter: Int?, _ why: String) {
            self.input = Array(input.utf8)
            self.settlesAfter = settlesAfter
            self.why = why
        }

        init(_ input: String, context: String, settlesAfter: Int?, _ why: String) {
            self.init(input, settlesAfter: settlesAfter, why)
            self.context = context
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
        Case("<script><!--<script <a", settlesAfter: 2,
             "a script ending at EOF double-escaped takes its serialized </script> as text once; the next one closes it"),
        Case("<!doctype html><p>foo<header>bar<p>baz", context: "math annotation-xml", settlesAfter: 2,
             "in a foreign context, <header> after a closed <p> is parsed as MathML on re-parse"),
        Case("FOO&#x000D;ZOO", context: "svg svg", settlesAfter: 2,
             "a CR from a character reference serializes raw and re-parses as LF"),
        Case("<p><td>x</td><tr>", context: "td", settlesAfter: 1,
             "a td context is not 'in cell': table tokens are ignored"),
    ]

    static func serialize(_ input: [UInt8], context: String?) -> String {
        guard let context else { return Document.parse(bytes: input).node.innerHTML }
        let (document, fragment) = Document.parseFragment(String(decoding: input, as: UTF8.self), context: context)
        return withExtendedLifetime(document) { fragment.innerHTML }
    }

    /// Number of re-parses until the serialization stops changing, or nil after `limit`.
    static func reparsesToFixedPoint(_ input: [UInt8], context: String?, limit: Int = 6) -> Int? {
        var previous = serialize(input, context: context)
        for round in 1...limit {
            let next = serialize(Array(previous.utf8), context: context)
            if next == previous { return round }
            previous = next
        }
        return nil
    }

    @Test(arguments: cases)
    func serializationSettles(_ testCase: Case) {
        let rounds = Self.reparsesToFixedPoint(testCase.input, context: testCase.context)
        let first = Self.serialize(testCase.input, context: testCase.context)
        #expect(rounds == testCase.settlesAfter, "\(testCase.why): first serialization \(first.debugDescription)")
    }
}
