@testable import Extraction
import HTML
import PiperTestSupport
import Testing

/// The byte-level title test answers as normalizing the heading and comparing does.
@Suite(.ownThread) struct TitleMatchTests {
    static let titles = ["the headline", "a", "x y z", "café au lait", "tab\tinside", "οδοσ και", "i̇stanbul", "kelvin"]
    static let headings = [
        "The Headline", "  the   headline ", "\nThe\tHEADLINE\r\n", "the headline.", "theheadline", "the  headline x",
        "A", " a ", "", "   ", "X\u{0B}Y\u{0C}Z", "x\u{1C}y z", "x y\u{85}z", "CAFÉ AU LAIT", "Cafe\u{301} au lait",
        "x\u{A0}y z", "tab inside", "tab\tinside", "the headline\u{0}", "ΟΔΟΣ ΚΑΙ", "Οδος\u{2003}και", "İstanbul",
        "\u{212A}elvin", "KELVIN", "a\u{A0}\u{301}b",
    ]

    @Test func agreesWithNormalizing() {
        for title in Self.titles.map(Classifier.normalized) {
            for heading in Self.headings {
                #expect(Classifier.isTitle(heading, title) == (Classifier.normalized(heading) == title),
                        "\(heading.debugDescription) against \(title.debugDescription)")
            }
        }
        #expect(Classifier.isTitle("  The   Headline\n", "the headline"))
        #expect(!Classifier.isTitle("The Headlines", "the headline"))
    }

    /// The byte-level normalizing of ASCII text answers as lowercasing and splitting at
    /// Characters that are white space do.
    @Test func normalizesAsCharactersDo() {
        for text in Self.headings + Self.titles + ["\r\n", "A\r\nB", "\u{1F}x\u{7F}", "MiXeD  CaSe\t"] {
            let reference = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(Classifier.normalized(text) == reference, "\(text.debugDescription)")
        }
    }

    /// The index walk of the text table counts what a walk over handles counts.
    @Test func textTableCountsTextAndLinks() {
        let document = Document.parse("<body><div id=r><p>one two <a href=x>link</a></p><script>var x = 1</script><!-- c --><p>three</p></div></body>")
        let root = document.body!.firstElementChild!
        let table = TextTable(root)
        #expect(table.length(root) == "onetwolinkthree".utf8.count)
        #expect(table.linkLength(root) == "link".utf8.count)
        #expect(table.elements.map(\.localName) == ["div", "p", "a", "p"])
    }

    /// Text mass leaves out scripts and styles and counts the other subtrees the text table
    /// skips (an SVG's title); a table made with masses answers the same without a walk.
    @Test func textMassLeavesOutScripts() {
        let document = Document.parse("<body><div id=r>one <script>var x = 1</script><style>p{}</style><svg><title>two</title></svg><p>three</p></div></body>")
        let root = document.body!.firstElementChild!
        #expect(TextMass.length(root) == "onetwothree".utf8.count)
        let table = TextTable(root, masses: true)
        #expect(table.length(root) == "onethree".utf8.count)
        #expect(table.mass(root) == TextMass.length(root))
        let svg = root.children.first { $0.localName == "svg" }!
        #expect(table.mass(svg) == "two".utf8.count)
    }
}
