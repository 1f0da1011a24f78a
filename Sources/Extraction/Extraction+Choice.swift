// The second container strategy and the choice between it and Readability's candidate.
// Before Readability runs, the survey finds a repeated structure (a thread's posts, a listing's
// items), a container named as the body and a <main>/<article>; each is copied while the page
// is whole. After Readability, a copy replaces its candidate when Readability found nothing or
// little, when the copy holds Readability's text and much more outside links (the other posts
// of a thread, the rest of a body Readability split), when Readability's few lines sit beside
// a thread or listing three times their size, or when the page's JSON-LD declares a thread.
// A body-named container matching Readability's candidate confirms it against a larger <main>.
// The box holding the page's prose stands in for a candidate that held part of it (an article
// split across sibling boxes of the page).
// A page of many headed sections (a service, landing or category page), cleaned whole, replaces
// a candidate that held one of its sections.
import HTML
import Readability

/// A container found before Readability ran, with how it was found. The page is kept as it
/// was in a snapshot (which costs nothing until Readability changes the page, and then one
/// copy of the arrays it writes); a container is copied out of it only when the choice
/// cleans it, and read in the snapshot before that.
final class Alternative {
    /// `footer` is no candidate: a footer of the page, for telling a candidate that lies in one.
    enum Kind { case repeated, listing, named, semantic, prose, page, footer }
    let kind: Kind
    /// The container as found, in the snapshot (read only).
    let source: Node
    /// The document the copy goes into.
    let document: Document
    /// The repeated items, as children of `source` (kept whatever they look like).
    let sourceItems: [Node]
    /// Headings in the copy as found (`page` only).
    var headings = 0
    /// The repeat's parent, when the source is a box around it (`withIntro`).
    let cards: Node?
    private var made: (copy: Node, items: Set<Node>)?

    /// `TextMass.length(source)`, when the survey's table knew it (nil: walked when asked).
    private let sourceMass: Int?

    init(kind: Kind, source: Node, document: Document, sourceItems: [Node] = [], headings: Int = 0, cards: Node? = nil,
         sourceMass: Int? = nil) {
        self.sourceMass = sourceMass
        self.cards = cards
        self.kind = kind
        self.source = source
        self.document = document
        self.sourceItems = sourceItems
        self.headings = headings
    }

    /// The copy (detached, in the page's document), made on first use.
    var copy: Node { materialize().copy }
    /// The repeated items inside the copy.
    var items: Set<Node> { materialize().items }

    /// The container as the choice would read its copy now: the copy once made (it may have
    /// been cleaned since), else the source, which an unmade copy would be identical to.
    var current: Node { made?.copy ?? source }
    /// `TextMass.length(current)`: for an unmade copy, the survey's count of the source.
    var currentMass: Int {
        if let made { return TextMass.length(made.copy) }
        assert(sourceMass == nil || sourceMass == TextMass.length(source), "the survey counted the source's text")
        return sourceMass ?? TextMass.length(source)
    }
    /// The repeated items of `current`.
    var currentItems: [Node] { made.map { Array($0.items) } ?? sourceItems }

    private func materialize() -> (copy: Node, items: Set<Node>) {
        if let made { return made }
        let copy = document.importNode(source)
        var items = Set<Node>()
        if !sourceItems.isEmpty {
            // The items found again in the copy by position: children of the source, or of
            // the repeat's parent inside it (a box around the cards, `withIntro`).
            let parent = sourceItems[0].parent ?? source
            let copiedParent = parent == source ? copy : Alternative.path(from: source, to: parent).flatMap { Alternative.follow($0, from: copy) }
            if let copiedParent {
                let wanted = Set(sourceItems)
                let copied = copiedParent.childNodes
                for (i, n) in parent.childNodes.enumerated() where wanted.contains(n) && i < copied.count { items.insert(copied[i]) }
            }
        }
        made = (copy, items)
        return (copy, items)
    }

    /// The child positions leading from `root` down to `node` (nil: not below it).
    static func path(from root: Node, to node: Node) -> [Int]? {
        var path: [Int] = []
        var n = node
        while n != root {
            guard let parent = n.parent else { return nil }
            guard let i = parent.childNodes.firstIndex(of: n) else { return nil }
            path.append(i)
            n = parent
        }
        return path.reversed()
    }

    /// The node `path` leads to from `root`.
    static func follow(_ path: [Int], from root: Node) -> Node? {
        var n = root
        for i in path {
            let children = n.childNodes
            guard i < children.count else { return nil }
            n = children[i]
        }
        return n
    }

    /// Items named as comments ("comment", "comment-body"): the replies under a short article,
    /// not a thread standing in for it.
    var areComments: Bool { currentItems.contains { Vocabulary.matches($0, Alternative.commentWords) } }
    static let commentWords = Vocabulary.Words(["comment"])

    /// Half the items or more carry a post header: a `<time>`, or a box named for the poster
    /// or the date (author, user, avatar, byline, timestamp, date). A thread's posts do; an
    /// article's sections of one shape do not.
    var itemsHavePostHeaders: Bool {
        let items = currentItems
        var headed = 0
        for (i, item) in items.enumerated() {
            // Decided once half are headed, or once the rest could no longer make half.
            if 2 * headed >= items.count || 2 * (headed + items.count - i) < items.count { break }
            for e in item.descendants where e.isElement {
                if e.localNameID == Classifier.time || !e.attributes.isEmpty && Vocabulary.matches(e, Alternative.postHeaderWords) {
                    headed += 1
                    break
                }
            }
        }
        return 2 * headed >= items.count
    }
    static let postHeaderWords = Vocabulary.Words(["author", "user", "poster", "avatar", "byline", "timestamp", "posted"], exact: ["date", "time"])

    /// A page of sections: at least this many headings in all ...
    static let sectionedHeadings = 5
    /// ... and one heading for every 1,000 / `sectionedDensity` bytes of the text its cleaned
    /// body keeps (six per kilobyte: a heading over every paragraph or two).
    static let sectionedDensity = 6
    /// The body is copied only when its text outside navigation, headers, footers, asides and
    /// forms is at most this many times what its headings allow: cleaning keeps more than
    /// three fifths of that text on the pages the rule takes, and most pages with five
    /// headings are not copied at all.
    static let sectionedSlack = 1.6

    /// A thread holding Readability's text stands in for it with this many posts or more ...
    static let threadItems = 4
    /// ... when this share of Readability's text is in it, under this share of its text is in
    /// links, and cleaned it holds a little more than Readability's text (the growth) and
    /// this share of its own.
    static let threadOverlap = 0.8
    static let threadLinkDensity = 0.5
    static let threadGrowth = 1.02
    static let threadKept = 0.7

    /// Readability's candidate is outside the declared main element when less than this share
    /// of its text is in it ...
    static let outsideMainOverlap = 0.3
    /// ... and the main element then stands in for it when it holds this much text (bytes) and
    /// this share of the candidate's.
    static let mainMinimum = 500.0
    static let mainShare = 0.3

    /// The prose box stands in for Readability's candidate only when at most this share of
    /// its cleaned text is Readability's.
    static let proseRepeated = 0.8

    /// A candidate shorter than this (bytes) that is a box of furniture counts as nothing
    /// found; the element holding this share of a box's text stands for it.
    static let furnitureCandidate = 1000
    /// A candidate with this share of its text in a footer of the page is in the footer.
    static let inFooter = 0.8
    static let furnitureShare = 0.75
    /// Boxes beside an article that are never one: an author's box, a cookie notice, a
    /// sidebar's widgets (a calendar, the archive), a sign-in box.
    static let furnitureBoxWords = Vocabulary.Words(["author", "cookie", "consent", "gdpr", "sidebar", "widget", "calendar",
                                                     "archive", "login", "signin"])

    /// A `main` element or `role=main`.
    static func isMain(_ node: Node) -> Bool {
        node.localNameID == mainElement || node.getAttribute("role")?.lowercased() == "main"
    }
    static let mainElement = Document.knownNameID("main")!

    /// Whether the survey's body can pass `sectionedPage`'s density test once cleaned.
    static func mayBeSectioned(_ survey: Survey) -> Bool {
        guard survey.headings >= sectionedHeadings, let body = survey.body else { return false }
        let most = Double(survey.headings * 1000 / sectionedDensity)
        return Double(survey.textLength(body) - survey.furnitureText) <= sectionedSlack * most
    }

    /// The survey's candidates: at most one of each kind, each a different node (but the
    /// semantic one, which may be a repeat's parent too), kept in a snapshot of the page as it
    /// is now.
    static func find(in survey: Survey) -> [Alternative] {
        var out: [Alternative] = []
        var taken = Set<Node>()
        let repeats = survey.bestRepeats()
        var snapshot: Document?
        func kept(_ n: Node) -> Node {
            if snapshot == nil { snapshot = n.document.snapshot() }
            return snapshot!.counterpart(of: n)
        }
        // The snapshot holds the text the survey counted (opening panels changed attributes
        // only), so the survey's masses are the sources'.
        func alternative(_ kind: Kind, _ n: Node, items: [Node] = [], headings: Int = 0) -> Alternative {
            Alternative(kind: kind, source: kept(n), document: n.document, sourceItems: items, headings: headings,
                        sourceMass: survey.table.mass(n))
        }
        func repeated(_ r: Repeat, kind: Kind) -> Alternative {
            alternative(kind, r.parent, items: r.parent.childNodes.filter { r.items.contains($0) }.map(kept))
        }
        if let r = repeats.posts, r.items.count >= 3 || r.mass >= 1500, r.linkDensity < 0.6 {
            out.append(repeated(r, kind: .repeated))
            taken.insert(r.parent)
        }
        if let r = repeats.listing, !taken.contains(r.parent) {
            out.append(repeated(r, kind: .listing))
            taken.insert(r.parent)
        }
        if let n = survey.bestNamed(), !taken.contains(n) {
            out.append(alternative(.named, n))
            taken.insert(n)
        }
        // The main element stays an alternative of its own also when its children repeat:
        // the repeat is cleaned as a thread, the element as an article's container.
        let semantic = survey.bestSemantic()
        if let n = semantic {
            out.append(alternative(.semantic, n))
        }
        if let n = survey.proseBox, !taken.contains(n), n != semantic {
            out.append(alternative(.prose, n))
        }
        for footer in survey.footers {
            out.append(alternative(.footer, footer))
        }
        if let body = survey.body, mayBeSectioned(survey) {
            out.append(alternative(.page, body, headings: survey.headings))
        }
        return out
    }
}

extension Extraction {
    /// Which container the piper mode refines: Readability's (nil: none) or an alternative's
    /// copy, cleaned. Returns the container, the captions to leave out of the text, and
    /// whether it is a thread or listing.
    static func choose(readability: Node?, alternatives: [Alternative], title: String?, schema: PageSchema = PageSchema())
        -> (root: Node, captions: Set<Node>, posts: Bool)? {
        // The title as the classifier compares headings with it, for every container cleaned.
        let title = title.map(Classifier.normalized)
        var readabilityCaptions: Set<Node> = []
        var readabilityLength = 0
        if let r = readability {
            (readabilityCaptions, readabilityLength) = Classifier.clean(r, normalizedTitle: title, schema: schema)
        }
        // A short candidate that is a box of the page's furniture (an author box, a cookie
        // notice, a sign-in form, a sidebar widget) counts as nothing found.
        // Readability's text pieces, indexed once for every container weighed against them.
        var index: PieceIndex?
        func shares(_ r: Node, _ other: Node) -> (ofReadability: Double, ofOther: Double) {
            if index == nil { index = PieceIndex(r) }
            let o = index!.overlap(with: other)
            return (o.ofIndexed, o.ofOther)
        }
        // A short candidate in the page's footer (its links, a newsletter box, a notice) is
        // furniture too.
        let furniture = readability.map { r in
            readabilityLength < Alternative.furnitureCandidate
                && (isFurniture(r) || alternatives.contains { $0.kind == .footer && shares(r, $0.source).ofReadability >= Alternative.inFooter })
        } ?? false
        let measured = readability != nil && readabilityLength >= 250 && !furniture
        // A container named as the body that holds Readability's text and little else confirms
        // Readability's choice: a larger <main>/<article> around both adds the page's furniture.
        var confirmed = false
        if let r = readability, readabilityLength >= 1000,
           let named = alternatives.first(where: { $0.kind == .named }), named.currentMass < 2 * readabilityLength {
            let o = shares(r, named.current)
            confirmed = o.ofReadability >= 0.9 && o.ofOther >= 0.8
        }
        var best: (root: Node, captions: Set<Node>, posts: Bool, length: Int, alternative: Alternative)?
        var cleaned: [Node: Set<Node>] = [:]
        for alternative in alternatives where alternative.kind != .page && alternative.kind != .footer {
            // A link-dense listing only stands in for a candidate that found little.
            if alternative.kind == .listing, readability != nil, readabilityLength >= 1500 { continue }
            if confirmed && (alternative.kind == .semantic || alternative.kind == .prose) { continue }
            // The prose box only stands in for a candidate it holds.
            if alternative.kind == .prose && !measured { continue }
            // A short candidate outside a named or semantic container three times its size
            // was a box beside the article (a teaser, a notice) rather than the article.
            let elsewhere = readabilityLength < 1000 && (alternative.kind == .named || alternative.kind == .semantic)
            // A candidate of a few lines beside a repeated structure or a listing three times its
            // size was one box of a thread's, shop's or service page's furniture; the repeated
            // items are the content. (A longer one is an article, the repeat beside it its
            // comments or teasers.)
            let beside = readabilityLength < 600 && (alternative.kind == .repeated || alternative.kind == .listing) && !confirmed
                && !alternative.areComments
            // Cleaning only shrinks a container: one too small already is passed over.
            var inside = true
            // A candidate wholly outside the page's declared main element (a notice bar, a
            // sidebar box) loses to that element when it holds real text with few links.
            var outsideMain = false
            // A thread of four posts or more holding Readability's text (one post, or the posts
            // without their headers) is the content once cleaned, even when little larger.
            var holdsThread = false
            var rawLength = 0.0
            if measured, let r = readability {
                let current = alternative.current
                let raw = Double(alternative.currentMass)
                rawLength = raw
                let mayBeThread = alternative.kind == .repeated && alternative.sourceItems.count >= Alternative.threadItems
                    && raw >= Alternative.threadGrowth * Double(readabilityLength) && !alternative.areComments
                    && alternative.itemsHavePostHeaders
                let mayBeMain = alternative.kind == .semantic && raw >= Alternative.mainMinimum
                    && raw >= Alternative.mainShare * Double(readabilityLength) && Alternative.isMain(current)
                // The overlap is measured only for a copy that can still pass.
                if raw < 1.5 * Double(readabilityLength) && !mayBeMain && !mayBeThread { continue }
                let overlap = shares(r, current).ofReadability
                outsideMain = mayBeMain && overlap < Alternative.outsideMainOverlap && TextTable(current).linkDensity(current) < 0.5
                holdsThread = mayBeThread && overlap >= Alternative.threadOverlap
                    && TextTable(current).linkDensity(current) < Alternative.threadLinkDensity
                if raw < 1.5 * Double(readabilityLength) && !outsideMain && !holdsThread { continue }
                inside = overlap >= 0.7
                if !inside && (elsewhere || beside) && raw < 3 * Double(readabilityLength) && !outsideMain { continue }
                if !inside && !elsewhere && !beside && !outsideMain { continue }
                if !inside && alternative.kind == .prose { continue }
            }
            // What the cleaned copy must keep to be taken: 250 bytes, for the main element
            // standing in for a candidate outside it; else against Readability's text, for a
            // thread a little more than it (and most of the thread's own text), 1.5 times it
            // for a copy holding it, twice beside it, three times elsewhere.
            var needed = 0.0
            if outsideMain {
                needed = 250
            } else if measured {
                let r = Double(readabilityLength)
                needed = holdsThread ? min(1.5 * r, max(Alternative.threadGrowth * r, Alternative.threadKept * rawLength))
                    : inside ? 1.5 * r : beside ? 2 * r : 3 * r
            }
            // Cleaning only removes: a copy whose text before cleaning is short of that, or of
            // beating the best so far, is passed over uncleaned, and one that falls short while
            // cleaning, as soon as it does.
            let least = max(needed, Double((best?.length ?? -1) + 1))
            var bound: (length: Int, least: Double)?
            if least > 0 {
                let raw = measured ? Int(rawLength) : alternative.currentMass
                if Double(raw) < least { continue }
                // A thread the page declares is taken after the loop whatever its length:
                // its copy is cleaned to the end.
                if !(schema.isThread && alternative.kind == .repeated) { bound = (raw, least) }
            }
            guard let (captions, length) = cleanCopy(alternative, normalizedTitle: title, schema: schema, unlessBelow: bound) else { continue }
            let root = alternative.copy
            cleaned[root] = captions
            guard Double(length) >= needed else { continue }
            if measured && !outsideMain {
                // The prose box, cleaned, still holds Readability's text and adds text of its
                // own, not a second copy of it (a page that renders the article twice, once
                // hidden).
                if inside && alternative.kind == .prose, let r = readability {
                    let o = shares(r, root)
                    if o.ofOther > Alternative.proseRepeated || o.ofReadability < 0.7 { continue }
                }
                // Three times Readability's text elsewhere on the page is prose, not links.
                if !inside && !beside && TextTable(root).linkDensity(root) >= 0.3 { continue }
            }
            if best == nil || length > best!.length {
                best = (root, captions, alternative.kind == .repeated || alternative.kind == .listing, length, alternative)
            }
        }
        // A page that declares itself a thread (JSON-LD) keeps its posts when they hold at
        // least Readability's text.
        if schema.isThread, best?.posts != true, let thread = alternatives.first(where: { $0.kind == .repeated }) {
            let captions = cleaned[thread.copy] ?? cleanCopy(thread, normalizedTitle: title, schema: schema).captions
            if TextMass.length(thread.copy) >= readabilityLength { return (thread.copy, captions, true) }
        }
        if let best {
            // A listing's heading and introduction above its cards.
            if best.posts, !schema.isThread, !best.alternative.itemsHavePostHeaders, let wider = best.alternative.withIntro() {
                wider.trimAfterCards()
                let (captions, length) = cleanCopy(wider, normalizedTitle: title, schema: schema)
                if length > best.length { return (wider.copy, captions, true) }
            }
            return (best.root, best.captions, best.posts)
        }
        guard let r = readability else { return nil }
        if let page = sectionedPage(alternatives, readabilityLength: readabilityLength, normalizedTitle: title, schema: schema) {
            return (page.copy, page.captions, false)
        }
        // Furniture with nothing to stand in for it: the page holds no article.
        if furniture { return nil }
        return (r, readabilityCaptions, false)
    }

    /// Whether Readability's candidate is a box of furniture: it, or the element holding
    /// nearly all its text at each level down, is named as one (and not as content).
    static func isFurniture(_ candidate: Node) -> Bool {
        var node = candidate
        var length = TextMass.length(candidate)
        while length > 0 {
            if !node.attributes.isEmpty {
                let names = Vocabulary.Names(node)
                if names.matches(Alternative.furnitureBoxWords) && !names.namesContent() { return true }
            }
            var next: (node: Node, length: Int)?
            var child = node.firstElementChild
            while let c = child {
                let n = TextMass.length(c)
                if Double(n) >= Alternative.furnitureShare * Double(length) { next = (c, n); break }
                child = c.nextElementSibling
            }
            guard let next else { return false }
            (node, length) = next
        }
        return false
    }

    /// A page of many headed sections (a service, landing or category page: a heading over
    /// every paragraph or two) whose cleaned body holds two and a half times Readability's
    /// candidate: Readability took one section (or the longest run of prose between
    /// headings); the sections together are the content. (An article's body adds sidebars and
    /// teasers to a candidate that holds most of the prose, and stays under that.)
    static func sectionedPage(_ alternatives: [Alternative], readabilityLength: Int, normalizedTitle title: String?, schema: PageSchema = PageSchema())
        -> (copy: Node, captions: Set<Node>)? {
        guard let page = alternatives.first(where: { $0.kind == .page }) else { return nil }
        // The cleaned body holds at most this much for its headings to be dense enough.
        let most = page.headings * 1000 / Alternative.sectionedDensity
        guard 2 * most >= 5 * readabilityLength else { return nil }
        // Cleaning gives up once the body can no longer keep two and a half times the candidate.
        let least = max(2.5 * Double(readabilityLength), 1)
        // A body short of that before cleaning is not copied.
        guard Double(page.currentMass) >= least, let (captions, length) = cleanCopy(page, normalizedTitle: title, schema: schema, unlessBelow: (page.currentMass, least)),
              2 * length >= 5 * readabilityLength, length <= most, length > 0 else { return nil }
        return (page.copy, captions)
    }

    /// Cleans an alternative's copy in place; returns its captions and the text it keeps.
    static func cleanCopy(_ alternative: Alternative, normalizedTitle: String?, schema: PageSchema = PageSchema()) -> (captions: Set<Node>, mass: Int) {
        cleanCopy(alternative, normalizedTitle: normalizedTitle, schema: schema, unlessBelow: nil)!
    }

    /// `cleanCopy`, given up (nil) as `Classifier.clean` gives up under `bound`.
    static func cleanCopy(_ alternative: Alternative, normalizedTitle: String?, schema: PageSchema = PageSchema(),
                          unlessBelow bound: (length: Int, least: Double)?) -> (captions: Set<Node>, mass: Int)? {
        stripUnreadable(alternative.copy, dialogs: alternative.kind == .prose)
        let posts = alternative.kind == .repeated || alternative.kind == .listing
        return Classifier.clean(alternative.copy, normalizedTitle: normalizedTitle, posts: posts, protected: alternative.items, schema: schema, unlessBelow: bound)
    }

    /// What Readability removes before scoring and a copy still holds: scripts, styles,
    /// templates, frames and form controls; from the prose box (often the body), the modal
    /// boxes removed from the page. A <noscript> holding most of the text (a forum that
    /// renders its posts there for crawlers) gives way to its children; any other (an "enable
    /// JavaScript" notice, a fallback image, a copy of what the page shows) is removed.
    static func stripUnreadable(_ root: Node, dialogs: Bool = false) {
        for n in root.descendantElements(named: ["script", "style", "template", "iframe", "object", "embed", "link", "meta",
                                                 "input", "textarea", "select", "option", "optgroup", "datalist", "button"]) {
            n.remove()
        }
        // The copy's text is measured only when it is needed: for the prose box's modal boxes,
        // or once a <noscript> is met.
        var measured: Int?
        // Modal boxes (consent banners, sign-in prompts) go from the prose box as from the page.
        if dialogs {
            let total = TextMass.length(root)
            measured = total
            for n in root.descendants.filter({ $0.isElement && Survey.isDialog($0) }) where 2 * TextMass.length(n) < total {
                n.remove()
            }
        }
        for n in root.descendantElements(named: ["noscript"]).reversed() {
            guard let parent = n.parent else { continue }
            if measured == nil { measured = TextMass.length(root) }
            let total = measured!
            // Most of the copy's text: the page's own; less is a copy of what the page shows.
            let length = TextMass.length(n)
            if length >= 200, 2 * length >= total {
                while let child = n.firstChild { _ = parent.insertBefore(child, n) }
            }
            n.remove()
        }
    }
}
