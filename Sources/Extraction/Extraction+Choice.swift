// The choice between Readability's candidate and the alternative containers (`Alternative`),
// measured here and decided by `ChoiceRules`.
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

extension Extraction {
    /// Which container the piper mode refines: Readability's (nil: none) or an alternative's
    /// copy, cleaned. Returns the container, the captions to leave out of the text, and
    /// whether it is a thread or listing.
    static func choose(readability: Node?, alternatives: [Alternative], title: String?, schema: PageSchema = PageSchema(),
                       tuning: Tuning) -> (root: Node, captions: Set<Node>, posts: Bool)? {
        // The title as the classifier compares headings with it, for every container cleaned.
        let title = title.map(Classifier.normalized)
        var readabilityCaptions: Set<Node> = []
        var candidate = CandidateEvidence(found: readability != nil, length: 0)
        if let r = readability {
            (readabilityCaptions, candidate.length) = Classifier.clean(r, normalizedTitle: title, schema: schema, tuning: tuning)
        }
        // Readability's text pieces, indexed once for every container weighed against them.
        var index: PieceIndex?
        func shares(_ r: Node, _ other: Node) -> (ofReadability: Double, ofOther: Double) {
            if index == nil { index = PieceIndex(r, piece: tuning.piece) }
            let o = index!.overlap(with: other)
            return (o.ofIndexed, o.ofOther)
        }
        if let r = readability {
            let footers = alternatives.lazy.filter { $0.kind == .footer }.map { shares(r, $0.source).ofReadability }
            candidate.furniture = ChoiceRules.isFurnitureCandidate(length: candidate.length, namedFurniture: isFurniture(r, tuning), footerShares: footers, tuning)
            if let named = alternatives.first(where: { $0.kind == .named }) {
                candidate.confirmed = ChoiceRules.confirms(candidate, namedMass: named.currentMass, overlap: {
                    let o = shares(r, named.current)
                    return (o.ofReadability, o.ofOther)
                }(), tuning)
            }
        }
        let measured = ChoiceRules.isMeasured(candidate, tuning)
        var best: (root: Node, captions: Set<Node>, posts: Bool, length: Int, alternative: Alternative)?
        var cleaned: [Node: Set<Node>] = [:]
        for alternative in alternatives {
            var evidence = AlternativeEvidence(kind: alternative.kind, mass: 0, items: alternative.sourceItems.count)
            if ChoiceRules.isPassedOver(evidence, candidate: candidate, tuning) { continue }
            evidence.areComments = alternative.areComments
            var standing = Standing(elsewhere: ChoiceRules.isElsewhere(evidence, candidate: candidate, tuning),
                                    beside: ChoiceRules.isBeside(evidence, candidate: candidate, tuning))
            if measured, let r = readability {
                let current = alternative.current
                evidence.mass = Double(alternative.currentMass)
                let thread = ChoiceRules.mayHoldThread(evidence, candidate: candidate, postHeaders: alternative.itemsHavePostHeaders, tuning)
                let main = ChoiceRules.mayStandForMain(evidence, candidate: candidate, isMain: Alternative.isMain(current), tuning)
                guard let s = ChoiceRules.standing(evidence, candidate: candidate, mayHoldThread: thread, mayStandForMain: main,
                                                   overlap: shares(r, current).ofReadability,
                                                   linkDensity: TextTable(current).linkDensity(current), tuning) else { continue }
                standing = s
            }
            let needed = ChoiceRules.needed(standing, evidence, candidate: candidate, tuning)
            // Cleaning only removes: a copy whose text before cleaning is short of that, or of
            // beating the best so far, is passed over uncleaned, and one that falls short while
            // cleaning, as soon as it does.
            let least = max(needed, Double((best?.length ?? -1) + 1))
            var bound: (length: Int, least: Double)?
            if least > 0 {
                let raw = measured ? Int(evidence.mass) : alternative.currentMass
                if Double(raw) < least { continue }
                // A thread the page declares is taken after the loop whatever its length:
                // its copy is cleaned to the end.
                if !(schema.isThread && alternative.kind == .repeated) { bound = (raw, least) }
            }
            guard let (captions, length) = cleanCopy(alternative, normalizedTitle: title, schema: schema, unlessBelow: bound) else { continue }
            let root = alternative.copy
            cleaned[root] = captions
            let taken = ChoiceRules.takesCleaned(standing, evidence, candidate: candidate, length: length, needed: needed,
                                                 proseShares: {
                                                     let o = shares(readability!, root)
                                                     return (o.ofReadability, o.ofOther)
                                                 }(),
                                                 linkDensity: TextTable(root).linkDensity(root), tuning)
            if !taken { continue }
            if best == nil || length > best!.length {
                best = (root, captions, alternative.kind == .repeated || alternative.kind == .listing, length, alternative)
            }
        }
        if schema.isThread, best?.posts != true, let thread = alternatives.first(where: { $0.kind == .repeated }) {
            let captions = cleaned[thread.copy] ?? cleanCopy(thread, normalizedTitle: title, schema: schema).captions
            if ChoiceRules.declaredThreadWins(threadLength: TextMass.length(thread.copy), candidate: candidate) {
                return (thread.copy, captions, true)
            }
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
        if let page = sectionedPage(alternatives, candidate: candidate, normalizedTitle: title, schema: schema, tuning: tuning) {
            return (page.copy, page.captions, false)
        }
        // Furniture with nothing to stand in for it: the page holds no article.
        if candidate.furniture { return nil }
        return (r, readabilityCaptions, false)
    }

    /// Whether Readability's candidate is a box of furniture: it, or the element holding
    /// nearly all its text at each level down, is named as one (and not as content).
    static func isFurniture(_ candidate: Node, _ tuning: Tuning) -> Bool {
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
                if Double(n) >= tuning.furnitureShare * Double(length) { next = (c, n); break }
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
    static func sectionedPage(_ alternatives: [Alternative], candidate: CandidateEvidence, normalizedTitle title: String?,
                              schema: PageSchema = PageSchema(), tuning: Tuning) -> (copy: Node, captions: Set<Node>)? {
        guard let page = alternatives.first(where: { $0.kind == .page }),
              ChoiceRules.sectionedMayWin(headings: page.headings, candidate: candidate, tuning) else { return nil }
        // Cleaning gives up once the body can no longer keep what the rule asks.
        let least = max(tuning.sectionedGrowth * Double(candidate.length), 1)
        // A body short of that before cleaning is not copied.
        guard Double(page.currentMass) >= least,
              let (captions, length) = cleanCopy(page, normalizedTitle: title, schema: schema, unlessBelow: (page.currentMass, least)),
              ChoiceRules.sectionedPageWins(headings: page.headings, length: length, candidate: candidate, tuning) else { return nil }
        return (page.copy, captions)
    }

    /// Cleans an alternative's copy in place (with the thresholds of the survey that found it);
    /// returns its captions and the text it keeps.
    static func cleanCopy(_ alternative: Alternative, normalizedTitle: String?, schema: PageSchema = PageSchema()) -> (captions: Set<Node>, mass: Int) {
        cleanCopy(alternative, normalizedTitle: normalizedTitle, schema: schema, unlessBelow: nil)!
    }

    /// `cleanCopy`, given up (nil) as `Classifier.clean` gives up under `bound`.
    static func cleanCopy(_ alternative: Alternative, normalizedTitle: String?, schema: PageSchema = PageSchema(),
                          unlessBelow bound: (length: Int, least: Double)?) -> (captions: Set<Node>, mass: Int)? {
        stripUnreadable(alternative.copy, dialogs: alternative.kind == .prose, alternative.tuning)
        let posts = alternative.kind == .repeated || alternative.kind == .listing
        return Classifier.clean(alternative.copy, normalizedTitle: normalizedTitle, posts: posts, protected: alternative.items, schema: schema,
                                unlessBelow: bound, tuning: alternative.tuning)
    }

    /// What Readability removes before scoring and a copy still holds: scripts, styles,
    /// templates, frames and form controls; from the prose box (often the body), the modal
    /// boxes removed from the page. A <noscript> holding most of the text (a forum that
    /// renders its posts there for crawlers) gives way to its children; any other (an "enable
    /// JavaScript" notice, a fallback image, a copy of what the page shows) is removed.
    static func stripUnreadable(_ root: Node, dialogs: Bool = false, _ tuning: Tuning) {
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
            for n in root.descendants.filter({ $0.isElement && Survey.isDialog($0) })
                where Double(TextMass.length(n)) < tuning.dialogShare * Double(total) {
                n.remove()
            }
        }
        for n in root.descendantElements(named: ["noscript"]).reversed() {
            guard let parent = n.parent else { continue }
            if measured == nil { measured = TextMass.length(root) }
            let total = measured!
            // Most of the copy's text: the page's own; less is a copy of what the page shows.
            let length = TextMass.length(n)
            if SurveyRules.isCopiedPage(length: length, copyText: total, tuning) {
                while let child = n.firstChild { _ = parent.insertBefore(child, n) }
            }
            n.remove()
        }
    }
}
