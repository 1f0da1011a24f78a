import HTML
import PiperTestSupport
import Testing

/// `containsBytes` is JavaScript's `includes`: a literal search, not Foundation's comparison
/// of canonically equivalent forms.
@Suite(.ownThread) struct StringBytesTests {
    @Test func findsLiteralOccurrences() {
        #expect("application/ld+json".containsBytes("ld+json"))
        #expect("Rock &amp; roll".containsBytes("&"))
        #expect("a".containsBytes(""))
        #expect(!"".containsBytes("a"))
        #expect(!"json".containsBytes("ld+json"))
        #expect(!"Application/LD+JSON".containsBytes("ld+json"))
        // A partial match at the end does not count.
        #expect(!"lazy-loa".containsBytes("load"))
        #expect("Größe: 42".containsBytes("öße: "))
    }

    @Test func comparesCodeUnitsNotCanonicalForms() {
        // "é" written as e + U+0301: JavaScript's includes finds "e" in it (a code unit
        // search), though "e" is not one of its characters.
        let decomposed = "caf" + "e\u{301}"
        #expect(decomposed.containsBytes("e"))
        // The precomposed é (U+00E9) is other bytes than e + U+0301.
        #expect(!decomposed.containsBytes("\u{E9}"))
        #expect("caf\u{E9}".containsBytes("\u{E9}"))
    }
}
