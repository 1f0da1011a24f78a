// The rules that trim an article's container once it is chosen: teaser grids, link lists
// beside the span after it, furniture after it, and the cards after the last paragraph. Pure
// functions of lengths and shares; `Classifier+Teasers` measures and removes.

enum TeaserRules {
    /// A box that may be a grid of teasers: long enough, with enough children to be cards.
    static func mayBeGrid(length: Int, children: Int, _ t: Tuning = .standard) -> Bool {
        length >= t.gridMinimum && children >= t.gridCards
    }

    /// A card of a grid: some text, at most `teaserCard` bytes.
    static func isCardSized(_ length: Int, _ t: Tuning = .standard) -> Bool { length > 0 && length <= t.teaserCard }

    /// Three cards or more holding `gridShare` of the box's text, half of them with a picture.
    static func isGrid(cards: Int, cardText: Int, pictured: Int, length: Int, _ t: Tuning = .standard) -> Bool {
        cards >= t.gridCards && Double(cardText) >= t.gridShare * Double(length) && 2 * pictured >= cards
    }

    /// Whether the children not yet seen (`unseen` bytes) can still make the cards most of the text.
    static func gridStillPossible(cardText: Int, unseen: Int, length: Int, _ t: Tuning = .standard) -> Bool {
        Double(cardText + unseen) >= t.gridShare * Double(length)
    }

    /// A box beside the span after it, not phrasing, holding a link, `trailingBox` bytes or more,
    /// under half the container's text and mostly links: a list of teaser cards.
    static func isTrailingLinkBox(length: Int, total: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        Double(length) < t.trailingShare * Double(total) && length >= t.trailingBox && linkDensity > t.trailingLinkDensity
    }

    /// A furniture element after the span, under half the text: cleaning kept it for its share.
    static func isTrailingFurniture(length: Int, total: Int, _ t: Tuning = .standard) -> Bool {
        Double(length) < t.trailingShare * Double(total)
    }

    /// On a product page, other products' grids go wherever they stand while under half the text.
    static func isOtherProducts(length: Int, total: Int, _ t: Tuning = .standard) -> Bool {
        Double(length) < t.cardsShare * Double(total)
    }

    /// A card's headline: `cardHeadline` bytes or more, nearly all a link.
    static func isHeadline(length: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        length >= t.cardHeadline && linkDensity >= t.cardHeadlineLinks
    }

    /// A card whose headline is no link (a picture, a heading, a summary and "Read more"): it
    /// must link out to another page and show a picture, as a story's teaser does; a box of a
    /// heading and text without a picture is a section of the page (a service's offers, a
    /// collection's entries). Cross-validated over trafilatura-eval and wcxb-dev against the same
    /// card without the picture: the held-back folds went from 0.9360 to 0.9364 and from 0.8713
    /// to 0.8716 (greenpeace's "Mehr zu Klima und Konsum", holzwerken's and wcxb-dev 0597's
    /// cards go; 2839's and 4474's offers lose a box); without the picture wcxb-dev fell.
    static func isUnlinkedHeadlineCard(linksOut: Bool, pictured: Bool) -> Bool { linksOut && pictured }

    /// A box around a headline that is still its card.
    static func isCard(length: Int, headline: Int, _ t: Tuning = .standard) -> Bool {
        length <= t.teaserCard && length - headline <= t.cardSummary
    }

    /// A paragraph of the text (the last one ends the article).
    static func isTextParagraph(length: Int, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        length >= t.lastParagraph && linkDensity < t.proseParagraphLinkDensity
    }

    /// The cards after the last paragraph go when they are under half the container's text (a
    /// listing is its cards), a lone card only under a tenth.
    static func cardsGo(count: Int, cardText: Int, total: Int, _ t: Tuning = .standard) -> Bool {
        count > 0 && Double(cardText) < t.cardsShare * Double(total) && (count > 1 || t.loneCardDivisor * cardText < total)
    }
}
