import Foundation
import PiperTestSupport
import Testing

/// Tree construction beyond the html5lib corpus in shared/: customizable select's "maybe clone
/// an option into selectedcontent" (HTML § 4.10.10) and fragments in raw-text contexts, where
/// no end tag is appropriate (§ 13.2.5), so `</script>` in a script context is text. The cases
/// are in html5lib's format in Fixtures/tree-construction.
@Suite(.ownThread) struct CustomizableSelectTests {
    static let cases = TreeConstructionCase.load(TestPaths.packageRoot
        .appendingPathComponent("Tests/HTMLTests/Fixtures/tree-construction/customizable-select.dat"))

    @Test func fixtureIsThere() {
        #expect(Self.cases.count >= 15)
    }

    @Test(arguments: cases.indices) func treeMatches(_ index: Int) {
        let c = Self.cases[index]
        for scripting in c.scripting.map({ [$0] }) ?? [true, false] {
            let got = c.run(scripting: scripting)
            #expect(got == c.expected, "input \(q(c.data)) (scripting \(scripting)): \(firstDifference(got, c.expected))\ngot:\n\(got)")
        }
    }
}
