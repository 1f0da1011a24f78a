@testable import Extraction
import Testing

/// The survey's and the teaser trim's rules on values alone (no page): the cases they were made
/// for and the edges where they stop.
@Suite(.ownThread) struct SurveyAndTeaserRulesTests {
    @Test func aNoscriptHoldingHalfThePageIsThePage() {
        #expect(SurveyRules.isScriptlessPage(length: 500, bodyText: 1000))
        #expect(!SurveyRules.isScriptlessPage(length: 499, bodyText: 1000), "a copy of part of what the page shows")
        #expect(!SurveyRules.isScriptlessPage(length: 199, bodyText: 300), "an \"enable JavaScript\" notice")
        #expect(SurveyRules.isCopiedPage(length: 200, copyText: 400))
        #expect(!SurveyRules.isCopiedPage(length: 200, copyText: 401))
    }

    @Test func modalBoxesOverThePageAndFooters() {
        #expect(SurveyRules.isOverlay(length: 100, bodyText: 201), "a consent banner")
        #expect(!SurveyRules.isOverlay(length: 100, bodyText: 200), "a dialog holding half the page is the page")
        #expect(!SurveyRules.isOverlay(length: 99, bodyText: 5000))
        #expect(SurveyRules.isFooterBox(length: 1, bodyText: 3))
        #expect(!SurveyRules.isFooterBox(length: 0, bodyText: 3))
        #expect(SurveyRules.isPageForm(length: 500, bodyText: 1000), "ASP.NET's page-wide form")
        #expect(!SurveyRules.isPageForm(length: 499, bodyText: 1000))
    }

    @Test func containers() {
        #expect(SurveyRules.isContainer(length: 200))
        #expect(!SurveyRules.isContainer(length: 199))
        #expect(SurveyRules.isNamedContainer(length: 200, linkDensity: 0.49))
        #expect(!SurveyRules.isNamedContainer(length: 5000, linkDensity: 0.5), "a named list of links")
        #expect(SurveyRules.standsForOuter(innerMass: 900, outerMass: 1000))
        #expect(!SurveyRules.standsForOuter(innerMass: 899, outerMass: 1000))
    }

    struct RepeatCase: Sendable, CustomTestStringConvertible {
        let items: Int, layout: Bool, named: Bool, text: Int, parent: Double, largest: Int, links: Double
        let listing: Bool, posts: Bool, why: String
        var testDescription: String { why }
    }

    @Test(arguments: [
        RepeatCase(items: 6, layout: false, named: true, text: 600, parent: 1000, largest: 120, links: 0.8, listing: true, posts: true,
                   why: "a grid of stories"),
        RepeatCase(items: 3, layout: false, named: false, text: 900, parent: 1000, largest: 400, links: 0.1, listing: false, posts: true,
                   why: "three unnamed posts"),
        RepeatCase(items: 2, layout: false, named: false, text: 900, parent: 1000, largest: 500, links: 0.1, listing: false, posts: false,
                   why: "two unnamed boxes are columns"),
        RepeatCase(items: 2, layout: false, named: true, text: 900, parent: 1000, largest: 675, links: 0.1, listing: false, posts: true,
                   why: "two named posts"),
        RepeatCase(items: 2, layout: false, named: true, text: 900, parent: 1000, largest: 676, links: 0.1, listing: false, posts: false,
                   why: "one column holds the article"),
        RepeatCase(items: 5, layout: false, named: true, text: 499, parent: 1000, largest: 100, links: 0.5, listing: false, posts: false,
                   why: "under half the parent's text"),
        RepeatCase(items: 5, layout: true, named: true, text: 800, parent: 1000, largest: 200, links: 0.3, listing: true, posts: true,
                   why: "a shop's cards named for their grid column"),
        RepeatCase(items: 5, layout: true, named: true, text: 800, parent: 1000, largest: 200, links: 0.29, listing: false, posts: true,
                   why: "page columns named for the grid"),
        RepeatCase(items: 5, layout: false, named: true, text: 800, parent: 1000, largest: 401, links: 0.9, listing: false, posts: true,
                   why: "one item holding over half is no listing"),
    ])
    func repeats(_ c: RepeatCase) {
        #expect(SurveyRules.isListing(items: c.items, layout: c.layout, named: c.named, text: c.text, parentText: c.parent,
                                      largest: c.largest, linkDensity: c.links) == c.listing)
        #expect(SurveyRules.arePosts(items: c.items, named: c.named, text: c.text, parentText: c.parent, largest: c.largest) == c.posts)
    }

    @Test func repeatSizes() {
        #expect(SurveyRules.mayHoldRepeat(length: 300) && !SurveyRules.mayHoldRepeat(length: 299))
        #expect(SurveyRules.mayRepeat(length: 15) && !SurveyRules.mayRepeat(length: 14))
        #expect(SurveyRules.isPostItem(length: 60) && !SurveyRules.isPostItem(length: 59))
    }

    @Test func teaserGrids() {
        #expect(TeaserRules.mayBeGrid(length: 150, children: 3))
        #expect(!TeaserRules.mayBeGrid(length: 149, children: 9))
        #expect(!TeaserRules.mayBeGrid(length: 900, children: 2))
        #expect(TeaserRules.isCardSized(600) && !TeaserRules.isCardSized(601) && !TeaserRules.isCardSized(0))
        #expect(TeaserRules.isGrid(cards: 4, cardText: 800, pictured: 2, length: 1000))
        #expect(!TeaserRules.isGrid(cards: 4, cardText: 800, pictured: 1, length: 1000), "half the cards show a picture")
        #expect(!TeaserRules.isGrid(cards: 4, cardText: 799, pictured: 4, length: 1000))
        #expect(!TeaserRules.isGrid(cards: 2, cardText: 1000, pictured: 2, length: 1000))
        #expect(TeaserRules.gridStillPossible(cardText: 300, unseen: 500, length: 1000))
        #expect(!TeaserRules.gridStillPossible(cardText: 300, unseen: 499, length: 1000))
    }

    @Test func trailingBoxes() {
        #expect(TeaserRules.isTrailingLinkBox(length: 40, total: 1000, linkDensity: 0.61))
        #expect(!TeaserRules.isTrailingLinkBox(length: 39, total: 1000, linkDensity: 1))
        #expect(!TeaserRules.isTrailingLinkBox(length: 500, total: 1000, linkDensity: 1), "half the text")
        #expect(!TeaserRules.isTrailingLinkBox(length: 100, total: 1000, linkDensity: 0.6))
        #expect(TeaserRules.isTrailingFurniture(length: 499, total: 1000) && !TeaserRules.isTrailingFurniture(length: 500, total: 1000))
        #expect(TeaserRules.isOtherProducts(length: 499, total: 1000) && !TeaserRules.isOtherProducts(length: 500, total: 1000))
    }

    @Test func cardsAfterTheLastParagraph() {
        #expect(TeaserRules.isHeadline(length: 10, linkDensity: 0.9))
        #expect(!TeaserRules.isHeadline(length: 9, linkDensity: 1))
        #expect(!TeaserRules.isHeadline(length: 50, linkDensity: 0.89))
        #expect(TeaserRules.isUnlinkedHeadlineCard(linksOut: true, pictured: true))
        #expect(!TeaserRules.isUnlinkedHeadlineCard(linksOut: true, pictured: false), "a section of heading and text")
        #expect(!TeaserRules.isUnlinkedHeadlineCard(linksOut: false, pictured: true), "a picture and its story, no teaser")
        #expect(TeaserRules.isCard(length: 450, headline: 50))
        #expect(!TeaserRules.isCard(length: 451, headline: 50), "more than a summary besides the headline")
        #expect(!TeaserRules.isCard(length: 601, headline: 300))
        #expect(TeaserRules.isTextParagraph(length: 80, linkDensity: 0.29))
        #expect(!TeaserRules.isTextParagraph(length: 79, linkDensity: 0))
        #expect(TeaserRules.cardsGo(count: 3, cardText: 499, total: 1000))
        #expect(!TeaserRules.cardsGo(count: 3, cardText: 500, total: 1000), "a listing is its cards")
        #expect(TeaserRules.cardsGo(count: 1, cardText: 99, total: 1000))
        #expect(!TeaserRules.cardsGo(count: 1, cardText: 100, total: 1000), "a lone card only under a tenth")
        #expect(!TeaserRules.cardsGo(count: 0, cardText: 0, total: 1000))
    }
}
