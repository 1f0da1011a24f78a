// The survey's rules: which boxes of the whole page are alternatives to Readability's candidate
// (repeats, listings, named and semantic containers) and which are not the page (modal boxes,
// a `<noscript>` page). Pure functions of lengths and shares; `Survey` measures.

enum SurveyRules {
    /// A `<noscript>` holding half the body's text (`scriptlessShare`) is the page as a
    /// browser without scripts shows it, the rest being a script's menu: it is unwrapped.
    static func isScriptlessPage(length: Int, bodyText: Int, _ t: Tuning = .standard) -> Bool {
        length >= t.scriptlessMinimum && Double(length) >= t.scriptlessShare * Double(bodyText)
    }

    /// A modal box (consent banner, sign-in prompt) holding under half the body's text is
    /// over the page and goes before Readability; a larger one is the page.
    static func isOverlay(length: Int, bodyText: Int, _ t: Tuning = .standard) -> Bool {
        length >= t.dialogMinimum && Double(length) < t.dialogShare * Double(bodyText)
    }

    /// A `role=contentinfo` box is a footer of the page when it holds text, under half the body's.
    static func isFooterBox(length: Int, bodyText: Int, _ t: Tuning = .standard) -> Bool {
        length > 0 && Double(length) < t.dialogShare * Double(bodyText)
    }

    /// A named or semantic container worth weighing.
    static func isContainer(length: Int, _ t: Tuning = .standard) -> Bool { length >= t.containerMinimum }

    /// A content-named container that is not a list of links.
    static func isNamedContainer(length: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        length >= t.containerMinimum && linkDensity < t.containerLinkDensity
    }

    /// An inner container holding nine tenths of the best one's text outside links stands for it.
    static func standsForOuter(innerMass: Double, outerMass: Double, _ t: Tuning = .standard) -> Bool {
        innerMass >= t.innerShare * outerMass
    }

    /// A parent whose children may repeat one shape.
    static func mayHoldRepeat(length: Int32, _ t: Tuning = .standard) -> Bool { length >= Int32(t.repeatParent) }
    /// A child long enough to join its shape's group.
    static func mayRepeat(length: Int32, _ t: Tuning = .standard) -> Bool { length >= Int32(t.repeatChild) }

    /// Four or more short items of one shape, together most of their parent's text, none half
    /// of it: a grid of products, a list of stories. Items named for their grid column
    /// ("col-md-3") only with a class and a third of their text in links (a shop's cards).
    static func isListing(items: Int, layout: Bool, named: Bool, text: Int, parentText: Double, largest: Int, linkDensity: Double,
                          _ t: Tuning = .standard) -> Bool {
        items >= t.listingItems && (!layout || named) && Double(text) >= t.repeatShare * parentText
            && (!layout || linkDensity >= t.listingLayoutLinkDensity) && Double(largest) <= t.listingLargest * Double(text)
    }

    /// A post holds `postItem` bytes.
    static func isPostItem(length: Int, _ t: Tuning = .standard) -> Bool { length >= t.postItem }

    /// Posts: most of their parent's text, none three quarters of it (page columns, one holding
    /// the article, are no repeat), and a class name unless they are three or more.
    static func arePosts(items: Int, named: Bool, text: Int, parentText: Double, largest: Int, _ t: Tuning = .standard) -> Bool {
        Double(text) >= t.repeatShare * parentText && Double(largest) <= t.postsLargest * Double(text) && (items >= t.unnamedPosts || named)
    }

    /// A form holding half the page's text is the page (ASP.NET's page-wide form), not
    /// furniture around a repeat (wcxb-dev 0.8545 → 0.8551).
    static func isPageForm(length: Int, bodyText: Int, _ t: Tuning = .standard) -> Bool {
        Double(length) >= t.pageFormShare * Double(bodyText)
    }

    /// A copy's `<noscript>` holding most of its text is its posts rendered for crawlers.
    static func isCopiedPage(length: Int, copyText: Int, _ t: Tuning = .standard) -> Bool {
        length >= t.copyScriptlessMinimum && Double(length) >= t.scriptlessShare * Double(copyText)
    }
}
