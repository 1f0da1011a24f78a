@testable import Extraction
import Testing

/// The classifier's byte-level measures on strings alone: the inline style that hides an
/// element, the class names that do, and the heading that repeats the title.
@Suite(.ownThread) struct ClassifierMeasureTests {
    @Test(arguments: [
        ("display:none", true), ("DISPLAY: NONE;", true), ("color:red; visibility : hidden", true), ("display:block", false),
        ("visibility:visible", false), ("", false),
        ("font-family:\"Noto Sans\"; display:none", true), ("ｄisplay:none", false),
    ])
    func hiddenByStyle(_ style: String, _ hidden: Bool) {
        #expect(Classifier.isHiddenByStyle(style) == hidden)
    }

    @Test func noStyleHidesNothing() {
        #expect(!Classifier.isHiddenByStyle(nil))
    }

    @Test(arguments: [
        ("hidden", true), ("card d-none", true), ("sr-only label", true), ("hidden md:block", false), ("hidden-xs", false),
        ("shown", false), ("", false),
    ])
    func hiddenByClass(_ className: String, _ hidden: Bool) {
        #expect(Vocabulary.namesHidden(className: className) == hidden)
    }

    @Test(arguments: [
        ("  The  Flood\nReport ", "the flood report", true), ("The Flood Report: part two", "the flood report", false),
        ("Über  MASS", "über mass", true), ("Über Maß", "über mass", false), ("", "x", false),
    ])
    func headingRepeatsTheTitle(_ heading: String, _ title: String, _ repeats: Bool) {
        #expect(Classifier.isTitle(heading, title) == repeats)
        #expect((Classifier.normalized(heading) == title) == repeats, "the byte-level test agrees with normalizing")
    }
}
