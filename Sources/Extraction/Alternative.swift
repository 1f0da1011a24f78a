// Alternative: a container the survey found before Readability ran (a repeat, a listing, a
// container named as the body, a <main>/<article>, the prose box, the page's footers, the body
// of a sectioned page), kept in a snapshot of the page and copied out only when the choice
// cleans it (`Extraction+Choice`).
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
    /// The thresholds of the survey that found it.
    let tuning: Tuning

    init(kind: Kind, source: Node, document: Document, sourceItems: [Node] = [], headings: Int = 0, cards: Node? = nil,
         sourceMass: Int? = nil, tuning: Tuning) {
        self.sourceMass = sourceMass
        self.tuning = tuning
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
            let share = tuning.postHeaderShare
            if Double(headed) >= share * Double(items.count) || Double(headed + items.count - i) < share * Double(items.count) { break }
            for e in item.descendants where e.isElement {
                if e.localNameID == Classifier.time || !e.attributes.isEmpty && Vocabulary.matches(e, Alternative.postHeaderWords) {
                    headed += 1
                    break
                }
            }
        }
        return Double(headed) >= tuning.postHeaderShare * Double(items.count)
    }
    static let postHeaderWords = Vocabulary.Words(["author", "user", "poster", "avatar", "byline", "timestamp", "posted"], exact: ["date", "time"])

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
        guard let body = survey.body else { return false }
        return ChoiceRules.mayBeSectioned(headings: survey.headings, text: survey.textLength(body) - survey.furnitureText, survey.tuning)
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
                        sourceMass: survey.table.mass(n), tuning: survey.tuning)
        }
        func repeated(_ r: Repeat, kind: Kind) -> Alternative {
            alternative(kind, r.parent, items: r.parent.childNodes.filter { r.items.contains($0) }.map(kept))
        }
        if let r = repeats.posts, ChoiceRules.isPosts(items: r.items.count, mass: r.mass, linkDensity: r.linkDensity, survey.tuning) {
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

