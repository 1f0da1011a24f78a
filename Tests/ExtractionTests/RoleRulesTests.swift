@testable import Extraction
import Testing

/// The classifier's rules on evidence alone (no page): each row is a case a rule was made for,
/// or the edge where it stops.
@Suite(.ownThread) struct RoleRulesTests {
    static func element(_ tag: String, length: Int = 100, total: Int = 1000, linkDensity: Double = 0,
                        region: MainSpan.Region = .inside, thread: Bool = false) -> ElementEvidence {
        var e = ElementEvidence(tag: tag, length: length, total: total, linkDensity: linkDensity, region: region)
        e.thread = thread
        return e
    }

    @Test func aLargeShareProtectsAllButLinkListFurniture() {
        #expect(RoleRules.holdsTheText(Self.element("div", length: 301)))
        #expect(!RoleRules.holdsTheText(Self.element("div", length: 300)))
        // A short article's sidebar of dated headlines: an aside of 600 bytes, 60% links.
        #expect(!RoleRules.holdsTheText(Self.element("aside", length: 600, linkDensity: 0.6)))
        #expect(RoleRules.holdsTheText(Self.element("aside", length: 600, linkDensity: 0.4)), "its prose outweighs the share")
        var navigation = Self.element("div", length: 600, linkDensity: 0.6)
        navigation.furnitureRole = true
        #expect(!RoleRules.holdsTheText(navigation))
    }

    @Test(arguments: [
        ("em", 120, true, true, false, true), ("small", 300, true, true, false, true), ("small", 301, true, true, false, false),
        ("em", 120, false, true, false, false), ("em", 120, true, false, false, false), ("div", 120, true, true, false, false),
        ("em", 120, true, true, true, false), ("em", 0, true, true, false, false),
    ])
    func pictureLegend(_ tag: String, _ length: Int, _ alone: Bool, _ afterPicture: Bool, _ thread: Bool, _ expected: Bool) {
        let e = Self.element(tag, length: length, thread: thread)
        #expect(RoleRules.isPictureLegend(e, aloneInParagraph: alone, afterPicture: afterPicture) == expected)
    }

    @Test func pageHeaders() {
        #expect(RoleRules.isPageHeader(Self.element("header"), holdsHeadline: true, holdsProse: false))
        #expect(!RoleRules.isPageHeader(Self.element("header"), holdsHeadline: true, holdsProse: true), "a header with a standfirst")
        #expect(!RoleRules.isPageHeader(Self.element("header"), holdsHeadline: false, holdsProse: false))
        #expect(!RoleRules.isPageHeader(Self.element("header", thread: true), holdsHeadline: true, holdsProse: false), "a post's header")
        #expect(!RoleRules.isPageHeader(Self.element("div"), holdsHeadline: true, holdsProse: false))
    }

    @Test func headingsRepeatingTheTitle() {
        #expect(RoleRules.repeatsTitle(Self.element("h1"), isTitle: true))
        #expect(RoleRules.repeatsTitle(Self.element("h3"), isTitle: true))
        #expect(!RoleRules.repeatsTitle(Self.element("h4"), isTitle: true))
        #expect(!RoleRules.repeatsTitle(Self.element("h2"), isTitle: false))
    }

    struct NamedCase: Sendable, CustomTestStringConvertible {
        let tag: String, length: Int, region: MainSpan.Region
        var content = false, post = false, inline = false, prose = false
        let expected: Bool, why: String
        var testDescription: String { why }
    }

    @Test(arguments: [
        NamedCase(tag: "div", length: 100, region: .inside, expected: true, why: "a share bar inside the text"),
        NamedCase(tag: "div", length: 100, region: .inside, prose: true, expected: false, why: "a widget of prose inside the span"),
        NamedCase(tag: "div", length: 100, region: .trailing, prose: true, expected: true, why: "an author's bio after the text"),
        NamedCase(tag: "div", length: 150, region: .trailing, prose: true, expected: false, why: "15% of the text after the span"),
        NamedCase(tag: "section", length: 100, region: .trailing, prose: true, expected: false, why: "a section of prose after the span"),
        NamedCase(tag: "div", length: 100, region: .inside, content: true, expected: false, why: "named as content too"),
        NamedCase(tag: "article", length: 100, region: .inside, post: true, expected: false, why: "a WordPress hentry with tag classes"),
        NamedCase(tag: "h3", length: 40, region: .inside, expected: false, why: "a heading inside the span"),
        NamedCase(tag: "h3", length: 40, region: .leading, expected: true, why: "a byline heading before the text"),
        NamedCase(tag: "span", length: 10, region: .inside, inline: true, expected: false, why: "a dateline in a sentence"),
    ])
    func namedFurniture(_ c: NamedCase) {
        var e = Self.element(c.tag, length: c.length, region: c.region)
        e.furnitureNamed = true
        #expect(RoleRules.isNamedFurniture(e, namesContent: c.content, namesPost: c.post, inlineInProse: c.inline, mostlyProse: c.prose) == c.expected)
        e.furnitureNamed = false
        #expect(!RoleRules.isNamedFurniture(e, namesContent: false, namesPost: false, inlineInProse: false, mostlyProse: false))
    }

    @Test func customerReviewsOnProductPagesOnly() {
        var e = Self.element("div", region: .trailing)
        e.product = true
        #expect(RoleRules.isCustomerReview(e, reviewNamed: true, namesContent: false))
        #expect(!RoleRules.isCustomerReview(e, reviewNamed: true, namesContent: true))
        var section = Self.element("section")
        section.product = true
        #expect(!RoleRules.isCustomerReview(section, reviewNamed: true, namesContent: false), "a landing page's quoted praise")
        e.product = false
        #expect(!RoleRules.isCustomerReview(e, reviewNamed: true, namesContent: false))
    }

    /// A "Label: link" line in an item of the list that is most of the article
    /// (`Tuning.articleListLabels`, off in the standard tuning) is the item's own.
    @Test func labelsInAnArticleList() throws {
        let line = Self.element("div", length: 20, linkDensity: 0.7)
        #expect(RoleRules.isLinkList(line, links: 1, inlinePromo: true, inArticleList: true), "off: a promo")
        let on = try Tuning.standard.overriding(["articleListLabels": 0.5])
        #expect(!RoleRules.isLinkList(line, links: 1, inlinePromo: true, inArticleList: true, on))
        #expect(!RoleRules.isLinkList(line, links: 2, inlinePromo: true, inArticleList: true, on), "Format: two values")
        #expect(RoleRules.isLinkList(line, links: 1, inlinePromo: true, inArticleList: false, on), "a promo elsewhere")
        #expect(RoleRules.isLinkList(line, links: 2, inlinePromo: false, inArticleList: true, on), "links without a label")
    }

    @Test func linkListsAndPromos() {
        let list = Self.element("ul", length: 150, linkDensity: 0.9)
        #expect(RoleRules.isLinkList(list, links: 2, inlinePromo: false))
        #expect(!RoleRules.isLinkList(list, links: 1, inlinePromo: false))
        #expect(RoleRules.isLinkList(Self.element("p", length: 80, linkDensity: 0.7), links: 1, inlinePromo: true))
        #expect(!RoleRules.isLinkList(Self.element("ul", length: 200, linkDensity: 0.9), links: 9, inlinePromo: false), "20% of the text")
        #expect(!RoleRules.isLinkList(Self.element("ul", length: 150, linkDensity: 0.5), links: 9, inlinePromo: false))
        #expect(!RoleRules.isLinkList(Self.element("ul", length: 150, linkDensity: 0.9, thread: true), links: 9, inlinePromo: false))
        #expect(!RoleRules.isLinkList(Self.element("li", length: 150, linkDensity: 0.9), links: 9, inlinePromo: false))
        #expect(RoleRules.isQuotedPromo(Self.element("h3", length: 60, linkDensity: 0.8), inlinePromo: true))
        #expect(!RoleRules.isQuotedPromo(Self.element("h3", length: 60, linkDensity: 0.8), inlinePromo: false))
        #expect(!RoleRules.isQuotedPromo(Self.element("h1", length: 60, linkDensity: 0.8), inlinePromo: true))
    }

    @Test(arguments: [
        (60, "PUEDES VER:", true), (209, "See also:", true), (210, "See also:", false),
        (60, "Read more", false), (60, String(repeating: "x", count: 38) + ":", true), (60, String(repeating: "x", count: 39) + ":", false),
    ])
    func inlinePromo(_ length: Int, _ label: String, _ expected: Bool) {
        #expect(RoleRules.isInlinePromo(length: length, label: label) == expected)
    }

    @Test func aPromoWithoutALinkHasNoLabel() {
        #expect(!RoleRules.isInlinePromo(length: 40, label: nil))
    }

    @Test(arguments: [
        (10, false, 8, true, true), (21, false, 12, true, true), (80, false, 29, true, true), (81, false, 40, true, false),
        (40, false, 15, true, true), (41, false, 14, true, false), (20, false, 12, false, false), (20, false, 3, true, false),
        (12, true, 0, false, true), (0, true, 0, false, false),
    ])
    func dateLine(_ length: Int, _ isTime: Bool, _ digits: Int, _ separated: Bool, _ expected: Bool) {
        #expect(RoleRules.isDateLine(length: length, isTime: isTime, inCode: false, figures: (digits, separated)) == expected)
    }

    @Test func programOutputIsNoDateLine() {
        #expect(!RoleRules.isDateLine(length: 10, isTime: false, inCode: true, figures: (8, true)))
    }

    @Test func dateLinesGoOnlyOutsideTheSpanAndOutsideData() {
        #expect(RoleRules.isDateLineOutsideSpan(Self.element("div", region: .leading), dateLine: true))
        #expect(!RoleRules.isDateLineOutsideSpan(Self.element("div"), dateLine: true))
        #expect(!RoleRules.isDateLineOutsideSpan(Self.element("td", region: .trailing), dateLine: true))
    }

    @Test func prose() {
        #expect(RoleRules.isMostlyProse(length: 85, linkDensity: 0.24, prose: 52))
        #expect(!RoleRules.isMostlyProse(length: 84, linkDensity: 0, prose: 84))
        #expect(!RoleRules.isMostlyProse(length: 100, linkDensity: 0.25, prose: 100))
        #expect(!RoleRules.isMostlyProse(length: 100, linkDensity: 0, prose: 59))
        #expect(RoleRules.isProseParagraph(length: 50, linkDensity: 0.29))
        #expect(!RoleRules.isProseParagraph(length: 49, linkDensity: 0))
        #expect(RoleRules.isStandfirst(length: 80, linkDensity: 0))
        #expect(!RoleRules.isStandfirst(length: 79, linkDensity: 0))
        #expect(RoleRules.isInlineInSentence(length: 10, parentLength: 80, parentLinkDensity: 0.4))
        #expect(!RoleRules.isInlineInSentence(length: 10, parentLength: 79, parentLinkDensity: 0))
        #expect(!RoleRules.isInlineInSentence(length: 10, parentLength: 200, parentLinkDensity: 0.5))
    }
}
