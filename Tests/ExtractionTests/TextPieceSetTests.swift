@testable import Extraction
import PiperTestSupport
import Testing

/// The choice's set of text pieces answers as `Set<Substring>` does (canonical equivalence),
/// though it compares bytes where bytes decide.
@Suite(.ownThread) struct TextPieceSetTests {
    static func agrees(_ members: [String], _ queries: [String]) {
        var set = TextPieceSet()
        for m in members { set.insert(m[...]) }
        let reference = Set(members.map { $0[...] })
        for q in queries {
            #expect(set.contains(q[...]) == reference.contains(q[...]), "\(q.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func plainPiecesMatchByTheirBytes() {
        let members = ["The river authority measured the flood.", "It reached “three villages” – and the old town."]
        Self.agrees(members, members + ["The river authority measured the flood!", "It reached “three villages” – and the old town"])
    }

    @Test func canonicallyEquivalentPiecesMatchAsStringsDo() {
        // "café" composed and decomposed; the Kelvin sign and K; an en quad and an en space.
        let composed = "The café by the river opened again today.", decomposed = "The cafe\u{301} by the river opened again today."
        let kelvin = "Water froze at 273 \u{212A} in the tank overnight.", letter = "Water froze at 273 K in the tank overnight."
        let quad = "Two words\u{2000}apart in the printed report.", space = "Two words\u{2002}apart in the printed report."
        Self.agrees([composed, letter, space], [decomposed, kelvin, quad, composed, "The cafe by the river opened again today."])
        Self.agrees([decomposed, kelvin, quad], [composed, letter, space, decomposed])
    }
}
