@testable import Extraction
import Testing

/// The choice's rules on evidence alone (no page): each table row is a case a rule was made
/// for, or the edge where it stops.
@Suite(.ownThread) struct ChoiceRulesTests {
    typealias Kind = Alternative.Kind

    static func candidate(_ length: Int, found: Bool = true, furniture: Bool = false, confirmed: Bool = false) -> CandidateEvidence {
        CandidateEvidence(found: found, length: length, furniture: furniture, confirmed: confirmed)
    }

    struct FurnitureCase: Sendable, CustomTestStringConvertible {
        let length: Int, named: Bool, footers: [Double], expected: Bool, why: String
        var testDescription: String { why }
    }

    @Test(arguments: [
        FurnitureCase(length: 400, named: true, footers: [], expected: true, why: "an author box is nothing found"),
        FurnitureCase(length: 400, named: false, footers: [0.1, 0.85], expected: true, why: "a footer's newsletter box"),
        FurnitureCase(length: 400, named: false, footers: [0.79], expected: false, why: "mostly outside the footer"),
        FurnitureCase(length: 1000, named: true, footers: [1], expected: false, why: "an article of 1,000 bytes is no box"),
        FurnitureCase(length: 999, named: false, footers: [], expected: false, why: "no name, no footer"),
    ])
    func furnitureCandidate(_ c: FurnitureCase) {
        #expect(ChoiceRules.isFurnitureCandidate(length: c.length, namedFurniture: c.named, footerShares: c.footers) == c.expected)
    }

    @Test func theFurnitureNameIsNotAskedOfALongCandidate() {
        var asked = false
        _ = ChoiceRules.isFurnitureCandidate(length: 5000, namedFurniture: { asked = true; return true }(), footerShares: [Double]())
        #expect(!asked)
    }

    @Test(arguments: [
        (ChoiceRulesTests.candidate(0, found: false), false), (ChoiceRulesTests.candidate(249), false), (ChoiceRulesTests.candidate(250), true),
        (ChoiceRulesTests.candidate(5000, furniture: true), false), (ChoiceRulesTests.candidate(5000), true),
    ])
    func measured(_ c: CandidateEvidence, _ expected: Bool) {
        #expect(ChoiceRules.isMeasured(c) == expected)
    }

    @Test func aNamedContainerConfirmsOnlyALongCandidateItHoldsAlone() {
        #expect(ChoiceRules.confirms(Self.candidate(2000), namedMass: 2200, overlap: (0.95, 0.9)))
        #expect(!ChoiceRules.confirms(Self.candidate(999), namedMass: 1000, overlap: (1, 1)))
        #expect(!ChoiceRules.confirms(Self.candidate(2000), namedMass: 4000, overlap: (1, 1)), "twice the candidate: more than it")
        #expect(!ChoiceRules.confirms(Self.candidate(2000), namedMass: 2200, overlap: (0.89, 1)))
        #expect(!ChoiceRules.confirms(Self.candidate(2000), namedMass: 2200, overlap: (1, 0.79)))
    }

    @Test(arguments: [
        (Kind.page, ChoiceRulesTests.candidate(100), true), (.footer, ChoiceRulesTests.candidate(100), true),
        (.listing, ChoiceRulesTests.candidate(1500), true), (.listing, ChoiceRulesTests.candidate(1499), false), (.listing, ChoiceRulesTests.candidate(0, found: false), false),
        (.semantic, ChoiceRulesTests.candidate(2000, confirmed: true), true), (.semantic, ChoiceRulesTests.candidate(2000), false),
        (.prose, ChoiceRulesTests.candidate(2000, confirmed: true), true), (.prose, ChoiceRulesTests.candidate(200), true), (.prose, ChoiceRulesTests.candidate(2000), false),
        (.repeated, ChoiceRulesTests.candidate(9000), false), (.named, ChoiceRulesTests.candidate(9000, confirmed: true), false),
    ])
    func passedOver(_ kind: Kind, _ c: CandidateEvidence, _ expected: Bool) {
        #expect(ChoiceRules.isPassedOver(AlternativeEvidence(kind: kind, mass: 0), candidate: c) == expected)
    }

    @Test func besideAndElsewhere() {
        let repeat_ = AlternativeEvidence(kind: .repeated, mass: 3000, items: 5)
        #expect(ChoiceRules.isBeside(repeat_, candidate: Self.candidate(599)))
        #expect(!ChoiceRules.isBeside(repeat_, candidate: Self.candidate(600)))
        #expect(!ChoiceRules.isBeside(repeat_, candidate: Self.candidate(300, confirmed: true)))
        var comments = repeat_
        comments.areComments = true
        #expect(!ChoiceRules.isBeside(comments, candidate: Self.candidate(300)), "the replies under a short article")
        #expect(ChoiceRules.isElsewhere(AlternativeEvidence(kind: .named, mass: 0), candidate: Self.candidate(999)))
        #expect(!ChoiceRules.isElsewhere(AlternativeEvidence(kind: .named, mass: 0), candidate: Self.candidate(1000)))
        #expect(!ChoiceRules.isElsewhere(AlternativeEvidence(kind: .listing, mass: 0), candidate: Self.candidate(10)))
    }

    @Test func aThreadNeedsFourPostsWithHeadersAndNoComments() {
        let posts = AlternativeEvidence(kind: .repeated, mass: 1020, items: 4)
        #expect(ChoiceRules.mayHoldThread(posts, candidate: Self.candidate(1000), postHeaders: true))
        #expect(!ChoiceRules.mayHoldThread(posts, candidate: Self.candidate(1000), postHeaders: false), "an article's sections")
        #expect(!ChoiceRules.mayHoldThread(AlternativeEvidence(kind: .repeated, mass: 1020, items: 3), candidate: Self.candidate(1000), postHeaders: true))
        #expect(!ChoiceRules.mayHoldThread(AlternativeEvidence(kind: .repeated, mass: 1019, items: 4), candidate: Self.candidate(1000), postHeaders: true))
        #expect(!ChoiceRules.mayHoldThread(AlternativeEvidence(kind: .listing, mass: 5000, items: 9), candidate: Self.candidate(1000), postHeaders: true))
    }

    @Test func theMainElementStandsInWithRealText() {
        let main = AlternativeEvidence(kind: .semantic, mass: 500)
        #expect(ChoiceRules.mayStandForMain(main, candidate: Self.candidate(1600), isMain: true))
        #expect(!ChoiceRules.mayStandForMain(main, candidate: Self.candidate(1700), isMain: true), "under 30% of the candidate")
        #expect(!ChoiceRules.mayStandForMain(AlternativeEvidence(kind: .semantic, mass: 499), candidate: Self.candidate(300), isMain: true))
        #expect(!ChoiceRules.mayStandForMain(main, candidate: Self.candidate(300), isMain: false), "an <article>, not <main>")
    }

    struct StandingCase: Sendable, CustomTestStringConvertible {
        let kind: Kind, mass: Double, candidate: Int, thread: Bool, main: Bool, overlap: Double, linkDensity: Double
        let expected: Standing?
        let why: String
        var testDescription: String { why }
    }

    @Test(arguments: [
        StandingCase(kind: .named, mass: 1499, candidate: 1000, thread: false, main: false, overlap: 1, linkDensity: 0,
                     expected: nil, why: "too small to grow the candidate half again"),
        StandingCase(kind: .named, mass: 1500, candidate: 1000, thread: false, main: false, overlap: 0.7, linkDensity: 0,
                     expected: Standing(), why: "holds the candidate and grows it: the rest of a split body"),
        StandingCase(kind: .named, mass: 3000, candidate: 1000, thread: false, main: false, overlap: 0.69, linkDensity: 0,
                     expected: nil, why: "a long candidate outside it is an article of its own"),
        StandingCase(kind: .named, mass: 2999, candidate: 900, thread: false, main: false, overlap: 0, linkDensity: 0,
                     expected: Standing(inside: false, elsewhere: true), why: "a teaser beside a named container three times its size"),
        StandingCase(kind: .named, mass: 2000, candidate: 900, thread: false, main: false, overlap: 0, linkDensity: 0,
                     expected: nil, why: "elsewhere but not three times the candidate"),
        StandingCase(kind: .repeated, mass: 1500, candidate: 500, thread: false, main: false, overlap: 0, linkDensity: 0,
                     expected: Standing(inside: false, beside: true), why: "a sidebar box beside a thread"),
        StandingCase(kind: .prose, mass: 5000, candidate: 500, thread: false, main: false, overlap: 0.5, linkDensity: 0,
                     expected: nil, why: "the prose box stands in only for a candidate it holds"),
        StandingCase(kind: .semantic, mass: 600, candidate: 1000, thread: false, main: true, overlap: 0.1, linkDensity: 0.4,
                     expected: Standing(inside: false, outsideMain: true), why: "a notice bar outside <main>"),
        StandingCase(kind: .semantic, mass: 600, candidate: 1000, thread: false, main: true, overlap: 0.1, linkDensity: 0.5,
                     expected: nil, why: "a <main> of links does not stand in"),
        StandingCase(kind: .repeated, mass: 1100, candidate: 1000, thread: true, main: false, overlap: 0.8, linkDensity: 0.2,
                     expected: Standing(holdsThread: true), why: "a thread holding Readability's one post"),
        StandingCase(kind: .repeated, mass: 1100, candidate: 1000, thread: true, main: false, overlap: 0.79, linkDensity: 0.2,
                     expected: nil, why: "a thread that does not hold the post"),
    ])
    func standing(_ c: StandingCase) {
        let a = AlternativeEvidence(kind: c.kind, mass: c.mass, items: c.thread ? 5 : 0)
        let s = ChoiceRules.standing(a, candidate: Self.candidate(c.candidate), mayHoldThread: c.thread, mayStandForMain: c.main,
                                     overlap: c.overlap, linkDensity: c.linkDensity)
        #expect(s == c.expected)
    }

    @Test func theOverlapIsNotMeasuredForACopyThatCannotPass() {
        var measured = false
        let s = ChoiceRules.standing(AlternativeEvidence(kind: .named, mass: 100), candidate: Self.candidate(1000), mayHoldThread: false,
                                     mayStandForMain: false, overlap: { measured = true; return 1 }(), linkDensity: 0)
        #expect(s == nil && !measured)
    }

    @Test func whatTheCleanedCopyMustKeep() {
        let c = Self.candidate(1000)
        let a = AlternativeEvidence(kind: .repeated, mass: 2000, items: 5)
        #expect(ChoiceRules.needed(Standing(), a, candidate: c) == 1500)
        #expect(ChoiceRules.needed(Standing(inside: false, beside: true), a, candidate: c) == 2000)
        #expect(ChoiceRules.needed(Standing(inside: false, elsewhere: true), a, candidate: c) == 3000)
        #expect(ChoiceRules.needed(Standing(outsideMain: true), a, candidate: c) == 250)
        // A thread: a little more than the candidate and most of its own text, at most 1.5 times.
        #expect(ChoiceRules.needed(Standing(holdsThread: true), a, candidate: c) == 1400)
        #expect(ChoiceRules.needed(Standing(holdsThread: true), AlternativeEvidence(kind: .repeated, mass: 1200), candidate: c) == 1020)
        #expect(ChoiceRules.needed(Standing(holdsThread: true), AlternativeEvidence(kind: .repeated, mass: 9000), candidate: c) == 1500)
        #expect(ChoiceRules.needed(Standing(), a, candidate: Self.candidate(0, found: false)) == 0)
    }

    @Test func theCleanedCopyIsTakenWhenItKeepsEnoughOfItsOwn() {
        let c = Self.candidate(1000)
        let prose = AlternativeEvidence(kind: .prose, mass: 3000)
        #expect(ChoiceRules.takesCleaned(Standing(), prose, candidate: c, length: 1500, needed: 1500, proseShares: (0.9, 0.6), linkDensity: 0))
        #expect(!ChoiceRules.takesCleaned(Standing(), prose, candidate: c, length: 1499, needed: 1500, proseShares: (0.9, 0.6), linkDensity: 0))
        #expect(!ChoiceRules.takesCleaned(Standing(), prose, candidate: c, length: 2000, needed: 1500, proseShares: (0.9, 0.81), linkDensity: 0),
                "an article rendered twice, once hidden")
        #expect(!ChoiceRules.takesCleaned(Standing(), prose, candidate: c, length: 2000, needed: 1500, proseShares: (0.69, 0.5), linkDensity: 0))
        let named = AlternativeEvidence(kind: .named, mass: 5000)
        #expect(!ChoiceRules.takesCleaned(Standing(inside: false, elsewhere: true), named, candidate: c, length: 4000, needed: 3000,
                                          proseShares: (0, 0), linkDensity: 0.3), "three times the candidate in links")
        #expect(ChoiceRules.takesCleaned(Standing(inside: false, beside: true), named, candidate: c, length: 4000, needed: 2000,
                                         proseShares: (0, 0), linkDensity: 0.9), "a listing's links beside a few lines")
    }

    @Test func sectionedPages() {
        // Five headings allow 833 bytes; with the slack, 1,332 bytes before cleaning.
        #expect(ChoiceRules.mayBeSectioned(headings: 5, text: 1332))
        #expect(!ChoiceRules.mayBeSectioned(headings: 5, text: 1333))
        #expect(!ChoiceRules.mayBeSectioned(headings: 4, text: 10))
        #expect(ChoiceRules.sectionedMayWin(headings: 6, candidate: Self.candidate(400)))
        #expect(!ChoiceRules.sectionedMayWin(headings: 6, candidate: Self.candidate(401)))
        #expect(ChoiceRules.sectionedPageWins(headings: 6, length: 1000, candidate: Self.candidate(400)))
        #expect(!ChoiceRules.sectionedPageWins(headings: 6, length: 999, candidate: Self.candidate(400)), "under 2.5 times the candidate")
        #expect(!ChoiceRules.sectionedPageWins(headings: 6, length: 1001, candidate: Self.candidate(400)), "too few headings for its text")
    }

    @Test func postsAreNotALinkList() {
        #expect(ChoiceRules.isPosts(items: 3, mass: 200, linkDensity: 0.59))
        #expect(ChoiceRules.isPosts(items: 2, mass: 1500, linkDensity: 0.1))
        #expect(!ChoiceRules.isPosts(items: 2, mass: 1499, linkDensity: 0.1))
        #expect(!ChoiceRules.isPosts(items: 9, mass: 9000, linkDensity: 0.6))
    }

    @Test func aTuningValueMovesItsRule() {
        var t = Tuning()
        t.candidateMinimum = 100
        #expect(ChoiceRules.isMeasured(Self.candidate(150), t))
        #expect(!ChoiceRules.isMeasured(Self.candidate(150)))
    }
}
