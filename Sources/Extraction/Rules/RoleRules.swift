// The classifier's rules: whether an element of the chosen container is content, boilerplate
// or a caption. Each is a pure function of `ElementEvidence` and the `Tuning`; measures that
// cost a walk (a heading's text against the title, the prose under a box, a promo's label) are
// arguments evaluated only when the rule reaches them. `Classifier.role` measures and asks
// them in order; the first that decides wins.
import HTML

enum RoleRules {
    /// Furniture elements: navigation, asides, footers, forms and controls.
    static let furnitureElements = NameSet(["nav", "aside", "footer", "form", "menu", "dialog", "button", "input", "select", "textarea", "label", "search"])
    /// ARIA roles of the same furniture.
    static let furnitureRoles: Set<String> = ["navigation", "complementary", "contentinfo", "banner", "search", "menu", "menubar",
                                              "dialog", "alertdialog", "alert", "toolbar"]
    /// Boxes that hold lists of links.
    static let listish = NameSet(["ul", "ol", "div", "section", "p", "span", "table", "dl"])
    /// Where a "See also: <a>headline</a>" promo is set between paragraphs.
    static let promoHolders = NameSet(["blockquote", "h2", "h3", "h4", "h5", "h6"])
    /// Headings, list items and table cells: a short line of figures there is data.
    static let dataCells = NameSet(["h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "dd", "dt", "tr", "table", "ul", "ol", "dl"])
    static let sectioning = NameSet(["article", "main", "section"])
    static let allHeadings = NameSet(["h1", "h2", "h3", "h4", "h5", "h6"])
    /// Headings that may repeat the title.
    static let titleHeadings = NameSet(["h1", "h2", "h3"])
    /// Styled runs that may hold a picture's legend.
    static let captionRuns = NameSet(["span", "em", "i", "small", "sub"])
    static let figcaption = Document.knownNameID("figcaption")!
    static let header = Document.knownNameID("header")!

    /// A furniture element or role whose text outside links is no large share of the container:
    /// its links hold the share, not prose, so the share does not protect it (a short
    /// article's sidebar of dated headlines outweighs it in links: trafilatura-eval 0.924 →
    /// 0.925, wcxb-dev 7 pages up, 3 down).
    static func isLinkListFurniture(_ e: ElementEvidence, _ t: Tuning = .standard) -> Bool {
        guard furnitureElements.contains(id: e.name) || e.furnitureRole else { return false }
        return Double(e.length) * (1 - e.linkDensity) <= t.protectedShare * Double(e.total)
    }

    /// An element holding more than `protectedShare` of the text is content whatever it looks
    /// like, unless it is link-list furniture.
    static func holdsTheText(_ e: ElementEvidence, _ t: Tuning = .standard) -> Bool {
        e.share > t.protectedShare && !isLinkListFurniture(e, t)
    }

    /// A picture's legend without a `figcaption`: a styled run of at most `legendLength` bytes
    /// that holds all of its paragraph's text (`aloneInParagraph`) and follows the paragraph's
    /// picture (`afterPicture`: `<p><img><br><em>Figure 4: …</em></p>`). Not in threads.
    static func isPictureLegend(_ e: ElementEvidence, aloneInParagraph: @autoclosure () -> Bool,
                                afterPicture: @autoclosure () -> Bool, _ t: Tuning = .standard) -> Bool {
        !e.thread && captionRuns.contains(id: e.name) && e.length > 0 && e.length <= t.legendLength && aloneInParagraph() && afterPicture()
    }

    /// A caption by its names (caption, credit, gallery, legend); in a thread or listing a box
    /// named "caption" is an item's name and blurb.
    static func isNamedCaption(_ e: ElementEvidence) -> Bool { !e.thread && e.captionNamed }

    /// A page header holding the headline or a `<time>` goes, unless it holds a standfirst
    /// (a paragraph of prose): then its parts are judged one by one, as leading matter.
    static func isPageHeader(_ e: ElementEvidence, holdsHeadline: @autoclosure () -> Bool, holdsProse: @autoclosure () -> Bool) -> Bool {
        !e.thread && e.name == header && holdsHeadline() && !holdsProse()
    }

    /// An `h1`–`h3` repeating the article's title (which the reader page shows on its own).
    static func repeatsTitle(_ e: ElementEvidence, isTitle: @autoclosure () -> Bool) -> Bool {
        titleHeadings.contains(id: e.name) && isTitle()
    }

    /// A box named as furniture (share, related, newsletter, byline, comment …) goes unless it
    /// is named as content or as a post (`hentry`: WordPress lists a post with its taxonomy
    /// classes, wcxb-dev listing 0.693 → 0.701), is a heading inside the span, an inline
    /// element in a sentence (a dateline), or mostly low-link prose inside the span. Outside the
    /// span the name is believed even over prose for boxes under `outsideShare` of the text that
    /// are not `article`/`main`/`section` (an author's bio, a sign-up pitch).
    static func isNamedFurniture(_ e: ElementEvidence, namesContent: @autoclosure () -> Bool, namesPost: @autoclosure () -> Bool,
                                 inlineInProse: @autoclosure () -> Bool, mostlyProse: @autoclosure () -> Bool,
                                 _ t: Tuning = .standard) -> Bool {
        guard e.furnitureNamed, !namesContent(), !namesPost() else { return false }
        guard e.region != .inside || !allHeadings.contains(id: e.name), !inlineInProse() else { return false }
        return e.region != .inside && e.share < t.outsideShare && !sectioning.contains(id: e.name) || !mostlyProse()
    }

    /// On a product page, boxes named review or rating are the customers' reviews, not the
    /// product's description (wcxb-dev product 0.626 → 0.645); a section of the text so named
    /// (the praise a landing page quotes between its features) is the page's own.
    static func isCustomerReview(_ e: ElementEvidence, reviewNamed: @autoclosure () -> Bool, namesContent: @autoclosure () -> Bool) -> Bool {
        e.product && (e.region != .inside || !sectioning.contains(id: e.name)) && reviewNamed() && !namesContent()
    }

    /// A small link-dense list (two links or more) or "Label: link" promo: related links,
    /// tags, a share bar. Not in threads and listings, whose items are links; with
    /// `articleListLabels`, a labelled line in an item of the list that is most of the article
    /// (`inArticleList`) is the item's own.
    static func isLinkList(_ e: ElementEvidence, links: @autoclosure () -> Int, inlinePromo: @autoclosure () -> Bool,
                           inArticleList: @autoclosure () -> Bool = false, _ t: Tuning = .standard) -> Bool {
        guard !e.thread && listish.contains(id: e.name) && e.share < t.promoShare && e.linkDensity > t.promoLinkDensity
            && (links() >= t.promoLinks || inlinePromo()) else { return false }
        return t.articleListLabels <= 0 || !(inArticleList() && inlinePromo())
    }

    /// "See also: <a>headline</a>" set as a quote or a subheading between paragraphs
    /// ("PUEDES VER: …": trafilatura-eval 0.93172 → 0.93210).
    static func isQuotedPromo(_ e: ElementEvidence, inlinePromo: @autoclosure () -> Bool, _ t: Tuning = .standard) -> Bool {
        !e.thread && promoHolders.contains(id: e.name) && e.share < t.promoShare && e.linkDensity > t.promoLinkDensity && inlinePromo()
    }

    /// Outside the span, a short date line or a lone `<time>` (not a heading, list item or
    /// cell, where figures are data).
    static func isDateLineOutsideSpan(_ e: ElementEvidence, dateLine: @autoclosure () -> Bool) -> Bool {
        e.region != .inside && !dataCells.contains(id: e.name) && dateLine()
    }

    /// A short line that is mostly a date or time, or a `<time>`: at most `dateLineLength`
    /// bytes, not in code (program output is figures), with a date or clock separator between
    /// figures ("23.10", "3:59", "5/12", "5. Mai") and figures making `dateLineDigitShare` of it.
    static func isDateLine(length: Int, isTime: Bool, inCode: @autoclosure () -> Bool,
                           figures: @autoclosure () -> (digits: Int, separated: Bool), _ t: Tuning = .standard) -> Bool {
        guard length > 0, length <= t.dateLineLength, !inCode() else { return false }
        if isTime { return true }
        let f = figures()
        return f.separated && f.digits >= t.dateLineDigits && Double(f.digits) >= t.dateLineDigitShare * Double(length)
    }

    /// "Label: <a>headline</a>": a short block (under `promoLength`) whose text before its
    /// first link (`label`, trimmed) ends in a colon and is short.
    static func isInlinePromo(length: Int, label: @autoclosure () -> String?, _ t: Tuning = .standard) -> Bool {
        guard length < t.promoLength, let label = label() else { return false }
        return label.hasSuffix(":") && label.count < t.promoLabel
    }

    /// Mostly paragraphs and few links: text whatever the box's name says (site builders call
    /// every box a widget). `prose`: the text of its paragraphs of prose.
    static func isMostlyProse(length: Int, linkDensity: Double, prose: @autoclosure () -> Int, _ t: Tuning = .standard) -> Bool {
        length >= t.mostlyProseLength && linkDensity < t.mostlyProseLinkDensity && Double(prose()) >= t.mostlyProseShare * Double(length)
    }

    /// A paragraph of prose: long enough, few links.
    static func isProseParagraph(length: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        length >= t.proseParagraph && linkDensity < t.proseParagraphLinkDensity
    }

    /// A standfirst: a paragraph of `standfirstParagraph` bytes or more, few links.
    static func isStandfirst(length: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        length >= t.standfirstParagraph && linkDensity < t.proseParagraphLinkDensity
    }

    /// An inline element inside a paragraph with much more text than it: a dateline or a name
    /// in a sentence ("<span class=dateline>KOBE –</span> A total of …") is the sentence's.
    static func isInlineInSentence(length: Int, parentLength: Int, parentLinkDensity: Double, _ t: Tuning = .standard) -> Bool {
        parentLength >= 2 * length + t.inlineSentenceExtra && parentLinkDensity < t.inlineSentenceLinkDensity
    }
}
