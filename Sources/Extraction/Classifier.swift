// Classifier: each element of the chosen container, top down, is content, boilerplate or a
// caption; boilerplate is removed. It measures an element (`ElementEvidence`: its share of the
// text, link density, region against the span, names) and asks `RoleRules` in order; the
// measures that cost a walk are in `Classifier+Measures`, the title test in `Classifier+Title`,
// the teaser grids removed after the choice in `Classifier+Teasers`.
import Foundation
import HTML
import Readability

/// What an element of the article is.
enum NodeRole {
    case content
    /// Navigation, promotion, sharing and other furniture: dropped from HTML and text.
    case boilerplate
    /// Figure captions and credits: kept in the reader HTML, left out of the plain text.
    case caption
}

struct Classifier {
    /// Text length of the whole container.
    let total: Int
    /// The article title, normalized, for dropping headings that repeat it.
    let title: String?
    /// A thread or listing: post headers (author, date) are content, and the repeated items
    /// themselves are never dropped.
    let posts: Bool
    let protected: Set<Node>
    /// A product page (`PageSchema.isProduct`): boxes named for customer reviews are furniture.
    let product: Bool
    let table: TextTable
    /// Where the prose is; threads and listings have no single span.
    let span: MainSpan?
    /// The thresholds the rules decide by.
    let tuning: Tuning

    /// `normalizedTitle`: the article title as `normalized` gives it (the choice normalizes it
    /// once for every container it cleans).
    /// `masses`: the table also counts the text `TextMass` counts (`TextTable.mass`).
    init(root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema(),
         spanNames: Bool = true, masses: Bool = false, tuning: Tuning) {
        self.tuning = tuning
        table = TextTable(root, masses: masses, prose: posts ? nil : .init(names: spanNames, run: tuning.proseRun))
        product = schema.isProduct
        total = max(1, table.length(root))
        self.title = normalizedTitle.flatMap { $0.isEmpty ? nil : $0 }
        self.posts = posts
        self.protected = protected
        span = posts ? nil : MainSpan(root: root, table: table, tuning: tuning)
    }

    /// The evidence on `node` the rules before its attributes ask.
    func evidence(of node: Node, region: MainSpan.Region) -> ElementEvidence {
        let length = table.length(node)
        var e = ElementEvidence(name: node.localNameID, length: length, total: total, linkDensity: table.linkDensity(node), region: region)
        e.thread = posts
        e.product = product
        return e
    }

    func role(of node: Node, region: MainSpan.Region = .inside) -> NodeRole {
        if !protected.isEmpty && protected.contains(node) { return .content }
        var e = evidence(of: node, region: region)
        // Read only for the few elements the share may protect.
        e.furnitureRole = e.share > tuning.protectedShare && node.getAttribute("role").map { RoleRules.furnitureRoles.contains($0.lowercased()) } ?? false
        if RoleRules.holdsTheText(e, tuning) { return .content }
        if e.name == RoleRules.figcaption { return .caption }
        if RoleRules.isPictureLegend(e, aloneInParagraph: isAloneInParagraph(node, length: e.length), afterPicture: followsPicture(node), tuning) {
            return .caption
        }
        // Most elements (paragraphs, links, emphasis) carry no attribute at all.
        let list = node.attributes
        if list.isEmpty { return role(of: node, e, attributes: ReadAttributes()) }
        e.hasAttributes = true
        return list.withUnsafeBufferPointer { role(of: node, e, attributes: ReadAttributes($0)) }
    }

    /// `role(of:region:)` once the element's attributes are read.
    private func role(of node: Node, _ e: ElementEvidence, attributes: ReadAttributes) -> NodeRole {
        var e = e
        // A box the page's microdata calls the item's description or body is content whatever
        // its class says ("item-caption").
        let declared = attributes.itemprop.map { Classifier.bodyProperties.contains($0.lowercased()) } ?? false
        let names = !e.hasAttributes || declared ? Vocabulary.Names.none : Vocabulary.Names(className: attributes.className, id: attributes.id)
        // The caption and furniture vocabularies, read in one pass over the names.
        (e.captionNamed, e.furnitureNamed) = names.isEmpty ? (false, false)
            : names.matches(Vocabulary.captionWords, posts ? Vocabulary.threadBoilerplateWords : Vocabulary.boilerplateWords)
        if RoleRules.isNamedCaption(e) { return .caption }
        if RoleRules.furnitureElements.contains(id: e.name) { return .boilerplate }
        if RoleRules.isPageHeader(e, holdsHeadline: !node.descendantElements(named: ["h1", "time"]).isEmpty, holdsProse: holdsProse(node)) {
            return .boilerplate
        }
        if let title, RoleRules.repeatsTitle(e, isTitle: Classifier.isTitle(node.textContent, title)) { return .boilerplate }
        if e.hasAttributes {
            if let role = attributes.role?.lowercased(), RoleRules.furnitureRoles.contains(role) { return .boilerplate }
            // A link hidden from screen readers only (a card's second link to the same page,
            // its teaser or picture) is on the screen (wcxb-dev collection 0.663 → 0.667).
            e.hidden = attributes.ariaHidden == "true" && e.name != MainSpan.anchor || attributes.hidden
                || Classifier.isHiddenByStyle(attributes.style) || Vocabulary.namesHidden(className: attributes.className)
            if e.hidden { return .boilerplate }
            if RoleRules.isNamedFurniture(e, namesContent: names.namesContent(), namesPost: names.hasToken(in: Classifier.entryNames),
                                          inlineInProse: isInlineInProse(node, length: e.length),
                                          mostlyProse: isMostlyProse(node, length: e.length), tuning) {
                return .boilerplate
            }
            if RoleRules.isCustomerReview(e, reviewNamed: names.matches(Vocabulary.reviewWords), namesContent: names.namesContent()) {
                return .boilerplate
            }
        }
        if RoleRules.isLinkList(e, links: node.countDescendantElements(named: ["a"]), inlinePromo: isInlinePromo(node, length: e.length),
                                inArticleList: isInArticleList(node), tuning) {
            return .boilerplate
        }
        if RoleRules.isQuotedPromo(e, inlinePromo: isInlinePromo(node, length: e.length), tuning) { return .boilerplate }
        if RoleRules.isDateLineOutsideSpan(e, dateLine: isDateLine(node, length: e.length)) { return .boilerplate }
        return .content
    }

    static let bodyProperties: Set<String> = ["description", "articlebody"]
    /// The microformats name of a post (`hentry`, which WordPress gives every post it lists
    /// along with its taxonomy classes, `tag-…`, `category-…`): a post, whatever else its
    /// names say.
    static let entryNames: [[UInt8]] = [Array("hentry".utf8)]

    /// Removes boilerplate under `root` and returns the captions left in place (for the text
    /// to skip).
    /// Also returns the text `root` keeps (`TextMass.length` of it cleaned), counted from the
    /// classifier's table as boxes go rather than walked again.
    static func clean(_ root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema(),
                      tuning: Tuning) -> (captions: Set<Node>, mass: Int) {
        clean(root, normalizedTitle: normalizedTitle, posts: posts, protected: protected, schema: schema, unlessBelow: nil, tuning: tuning)!
    }

    /// `clean`, given up (nil, `root` half cleaned) once the text it can still keep falls
    /// under `bound.least`: `bound.length` (the container's `TextMass.length` before) less the
    /// text of the boxes removed so far. A box's table length never exceeds its text mass, and
    /// cleaning only removes, so the container cleaned to the end would keep less still. The
    /// choice cleans alternatives it then passes over; this stops those early.
    static func clean(_ root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema(),
                      unlessBelow bound: (length: Int, least: Double)?, tuning: Tuning) -> (captions: Set<Node>, mass: Int)? {
        let classifier = Classifier(root: root, normalizedTitle: normalizedTitle, posts: posts, protected: protected, schema: schema,
                                    masses: true, tuning: tuning)
        var captions = Set<Node>()
        var left = bound?.length ?? 0
        // A removed box's subtree is as the table counted it (the walk never entered it); a
        // heading removed after its list was walked first, and is counted as it is now, as is
        // a box the table holds no count of.
        var mass = classifier.table.mass(root)
        var stack = root.children.reversed().map { ($0, MainSpan.Region.inside) }
        while let (node, parentRegion) = stack.popLast() {
            let region = classifier.span?.region(of: node, parent: parentRegion) ?? .inside
            switch classifier.role(of: node, region: region) {
            case .boilerplate:
                // A list of links goes with the heading that only introduced it.
                let heading = posts || classifier.table.linkDensity(node) <= tuning.introducedListLinkDensity ? nil : node.previousElementSibling
                node.remove()
                // A box inside a skipped subtree (an SVG's title) is not in the table.
                let removed = classifier.table.mass(node)
                mass -= removed > 0 ? removed : TextMass.length(node)
                if let heading, classifier.headsNothing(heading) {
                    mass -= TextMass.length(heading)
                    heading.remove()
                }
                if let bound {
                    left -= classifier.table.length(node)
                    if Double(left) < bound.least { return nil }
                }
            case .caption:
                captions.insert(node)
            case .content:
                // The element children, the last pushed first: the first is taken next.
                var child = node.lastElementChild
                while let c = child {
                    stack.append((c, region))
                    child = c.previousElementSibling
                }
            }
        }
        assert(mass == TextMass.length(root), "the cleaned container's text is its table's less the boxes removed")
        return (captions, mass)
    }
}
