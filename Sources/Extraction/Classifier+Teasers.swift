// Teaser grids and repeated boxes after an article's text, removed once the container is
// chosen: "Latest articles" cards after the last paragraph, grids of linked teasers, other
// products' cards on a product page, and boxes that repeat an earlier sibling word for word.
import HTML

extension Classifier {
    /// A grid of teasers: three or more children, each a short card holding a link, that
    /// together hold nearly all the box's text.
    /// With `priced` (a product page), the cards are other products: each shows a price, and
    /// may hold controls (add to cart, quick view).
    func isTeaserGrid(_ node: Node, length: Int, priced: Bool = false) -> Bool {
        guard TeaserRules.mayBeGrid(length: length, children: node.childElementCount, tuning) else { return false }
        var cards = 0, cardText = 0, pictured = 0, seen = 0
        var child = node.firstElementChild
        while let c = child {
            child = c.nextElementSibling
            let n = table.length(c)
            seen += n
            if TeaserRules.isCardSized(n, tuning), c.localNameID == MainSpan.anchor || c.countDescendantElements(named: ["a"]) >= 1,
               priced ? Classifier.showsPrice(c)
                      : c.descendantElements(named: ["button", "form", "input", "select"]).isEmpty && !Classifier.showsPrice(c) {
                cards += 1
                cardText += n
                if !c.descendantElements(named: ["img", "picture"]).isEmpty { pictured += 1 }
            } else if !TeaserRules.gridStillPossible(cardText: cardText, unseen: length - seen, length: length, tuning) {
                // The children left cannot make the cards most of the text any more.
                return false
            }
        }
        return TeaserRules.isGrid(cards: cards, cardText: cardText, pictured: pictured, length: length, tuning)
    }

    /// A currency sign in the text: a shop's product card, not a story's teaser.
    static func showsPrice(_ node: Node) -> Bool {
        var found = false
        node.forEachDescendantText { s in
            if !found, s.contains(where: { $0 == "€" || $0 == "$" || $0 == "£" || $0 == "¥" }) { found = true }
        }
        return found
    }

    /// Removes the grids of teaser cards after the span of the chosen article container (run
    /// once the choice is made, so that it does not move it).
    /// On a product page the grids of other products (cards showing a price) go too, wherever
    /// they stand, when they hold under half the container's text; and anywhere a box that
    /// repeats an earlier sibling word for word goes.
    static func trimTrailingTeasers(_ root: Node, product: Bool = false, _ tuning: Tuning) {
        let classifier = Classifier(root: root, normalizedTitle: nil, spanNames: false, tuning: tuning)
        guard let span = classifier.span else { return }
        let rootLength = classifier.table.length(root)
        var seen: [(length: Int32, node: Node)] = []
        classifier.dropTrailingCards(rootLength: rootLength)
        classifier.dropRepeatedChildren(of: root, seen: &seen)
        var stack = root.children.reversed().map { ($0, MainSpan.Region.inside) }
        while let (node, parentRegion) = stack.popLast() {
            let region = span.region(of: node, parent: parentRegion)
            let length = classifier.table.length(node)
            if region == .trailing, length <= span.total, classifier.isTeaserGrid(node, length: length)
                || region == .trailing && span.isBeside(node)
                && TeaserRules.isTrailingLinkBox(length: length, total: classifier.total, linkDensity: classifier.table.linkDensity(node), tuning)
                && !Classifier.phrasing.contains(node) && node.countDescendantElements(named: ["a"]) >= 1
                || region == .trailing && TeaserRules.isTrailingFurniture(length: length, total: classifier.total, tuning)
                && RoleRules.furnitureElements.contains(node)
                || product && TeaserRules.isOtherProducts(length: length, total: rootLength, tuning)
                && classifier.isTeaserGrid(node, length: length, priced: true) {
                node.remove()
                continue
            }
            classifier.dropRepeatedChildren(of: node, seen: &seen)
            var child = node.lastElementChild
            while let c = child {
                stack.append((c, region))
                child = c.previousElementSibling
            }
        }
    }

    /// The teaser card a headline heads: the outermost box around it (not the container) of
    /// 600 bytes at most, holding at most 400 bytes besides the headline and no heading before
    /// it (`previous`, the last `h2`–`h6` before it in document order). The headline is a
    /// heading of 10 bytes or more nearly all in a link to another page: an in-page link is an
    /// accordion's toggle (a FAQ's question), not a teaser. A headline without a link heads a
    /// card too when the card has a picture and links out ("Read more";
    /// `TeaserRules.isUnlinkedHeadlineCard`).
    func card(headedBy heading: Node, after previous: Node?, below root: Node) -> Node? {
        let title = table.length(heading)
        let linked: Bool
        if TeaserRules.isHeadline(length: title, linkDensity: table.linkDensity(heading), tuning) {
            guard let link = heading.localNameID == MainSpan.anchor ? heading : heading.descendantElements(named: ["a"]).first,
                  Classifier.linksOut(link) else { return nil }
            linked = true
        } else {
            guard title >= tuning.cardHeadline else { return nil }
            linked = false
        }
        var card: Node?
        var parent = heading.parent
        while let box = parent, box != root, !RoleRules.allHeadings.contains(box) {
            let length = table.length(box)
            guard TeaserRules.isCard(length: length, headline: title, tuning) else { break }
            if let previous, box.contains(previous) { break }
            card = box
            parent = box.parent
        }
        if !linked, let found = card,
           !TeaserRules.isUnlinkedHeadlineCard(linksOut: found.descendantElements(named: ["a"]).contains(where: Classifier.linksOut),
                                               pictured: !found.descendantElements(named: ["img", "picture"]).isEmpty) {
            return nil
        }
        return card
    }

    /// A link to another page: not in-page (an accordion's toggle) nor a script.
    static func linksOut(_ link: Node) -> Bool {
        guard let href = link.getAttribute("href") else { return false }
        return !href.hasPrefix("#") && !href.lowercased().hasPrefix("javascript:")
    }
    static let cardHeadings = NameSet(["h2", "h3", "h4", "h5", "h6"])

    /// Removes the teaser cards after the container's last paragraph of prose ("Latest
    /// articles", "More from the section": each card a linked headline and its summary), with
    /// the headings that only introduced them. The cards' summaries are prose-like, so the main
    /// span can run on through them; the last real paragraph ends the article instead. Left
    /// alone when the cards hold half the container's text (a listing is its cards).
    func dropTrailingCards(rootLength: Int) {
        guard let root = table.elements.first else { return }
        // Cards by their headline's position; paragraphs of prose by theirs.
        var cards: [(at: Int, node: Node)] = []
        var prose: [(at: Int, node: Node)] = []
        var previousHeading: Node?
        for (i, e) in table.elements.enumerated() {
            if Classifier.cardHeadings.contains(e) {
                let found = card(headedBy: e, after: previousHeading, below: root)
                previousHeading = e
                guard let found else { continue }
                if let last = cards.last?.node, last == found || last.contains(found) { continue }
                cards.append((i, found))
            } else if e.localNameID == Classifier.paragraph, TeaserRules.isTextParagraph(length: table.length(e), linkDensity: table.linkDensity(e), tuning) {
                prose.append((i, e))
            }
        }
        guard !cards.isEmpty else { return }
        // The last paragraph outside the cards (a card's summary is no paragraph of the text).
        let cardNodes = Set(cards.map(\.node))
        let inCard = { (p: Node) -> Bool in
            var n = p.parent
            while let a = n, a != root {
                if cardNodes.contains(a) { return true }
                n = a.parent
            }
            return false
        }
        guard let lastProse = prose.last(where: { !inCard($0.node) })?.at else { return }
        let trailing = cards.filter { $0.at > lastProse }
        // A lone card is a promo only while it is small beside the text.
        let cardText = trailing.reduce(0) { $0 + table.length($1.node) }
        guard TeaserRules.cardsGo(count: trailing.count, cardText: cardText, total: rootLength, tuning) else { return }
        // The headings between the last paragraph and the cards that head nothing but cards.
        var introductions: [Node] = []
        var pending: Node?
        var next = 0
        var skipping: Node?
        for e in table.elements[(lastProse + 1)...] {
            if let inside = skipping, inside.contains(e) { continue }
            skipping = nil
            if next < trailing.count, trailing[next].node == e {
                if let heading = pending { introductions.append(heading); pending = nil }
                next += 1
                skipping = e
            } else if RoleRules.allHeadings.contains(e) {
                pending = e
                skipping = e
            } else if Classifier.ownsText(e) {
                pending = nil
            }
        }
        for card in trailing { card.node.remove() }
        for heading in introductions { heading.remove() }
    }
}
