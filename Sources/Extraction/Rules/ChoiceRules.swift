// The choice's rules: when an alternative container stands in for Readability's candidate.
// Each is a pure function of the evidence (`CandidateEvidence`, `AlternativeEvidence`) and the
// `Tuning`; measures that cost a walk (shares of text between containers, link density of a
// copy, post headers) are arguments evaluated only when the rule reaches them, so the choice
// measures no more than it did when these rules were written inline. `Extraction.choose`
// measures and applies them in order.

enum ChoiceRules {
    /// A short candidate that is a box of the page's furniture: named so (an author box, a
    /// cookie notice, a sidebar's calendar, a sign-in box), or with `inFooter` of its text in
    /// a footer of the page (help links, a newsletter box). It counts as nothing found, and
    /// with nothing to stand in for it the page holds no article: a page a script renders,
    /// saved before it ran, holds only its header and footer.
    static func isFurnitureCandidate(length: Int, namedFurniture: @autoclosure () -> Bool,
                                     footerShares: some Sequence<Double>, _ t: Tuning = .standard) -> Bool {
        length < t.furnitureCandidate && (namedFurniture() || footerShares.contains { $0 >= t.inFooter })
    }

    /// Whether the candidate is weighed against the alternatives at all: one under
    /// `candidateMinimum`, or furniture, is as if Readability had found nothing.
    static func isMeasured(_ c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        c.found && c.length >= t.candidateMinimum && !c.furniture
    }

    /// A container named as the body (entry-content, articleBody) that holds the candidate's
    /// text and little else confirms Readability's choice: a larger `main`/`article` around
    /// both adds the page's furniture. `overlap`: the share of the candidate's text in the
    /// named container, and of the container's text that is the candidate's.
    static func confirms(_ c: CandidateEvidence, namedMass: Int,
                         overlap: @autoclosure () -> (ofCandidate: Double, ofNamed: Double), _ t: Tuning = .standard) -> Bool {
        guard c.found, c.length >= t.confirmingCandidate, Double(namedMass) < t.confirmingSize * Double(c.length) else { return false }
        let o = overlap()
        return o.ofCandidate >= t.confirmingOverlap && o.ofNamed >= t.confirmingOwnShare
    }

    /// Alternatives the choice does not try: the body and the footers (no candidates here); a
    /// link-dense listing against a candidate that found text (`listingCandidate`); a `main`
    /// or the prose box against a confirmed candidate; the prose box against a candidate not
    /// measured (it stands in only for one it holds).
    static func isPassedOver(_ a: AlternativeEvidence, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        switch a.kind {
        case .page, .footer: return true
        case .listing: return c.found && c.length >= t.listingCandidate
        case .semantic: return c.confirmed
        case .prose: return c.confirmed || !isMeasured(c, t)
        case .repeated, .named: return false
        }
    }

    /// A short candidate outside a named or semantic container (three times its size, see
    /// `standing`) was a box beside the article (a teaser, a notice).
    static func isElsewhere(_ a: AlternativeEvidence, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        c.length < t.elsewhereCandidate && (a.kind == .named || a.kind == .semantic)
    }

    /// A candidate of a few lines beside a repeated structure or listing was one box of a
    /// thread's, shop's or service page's furniture; the items are the content. A longer one
    /// is an article, the repeat its comments or teasers; so are items named as comments.
    static func isBeside(_ a: AlternativeEvidence, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        c.length < t.besideCandidate && (a.kind == .repeated || a.kind == .listing) && !c.confirmed && !a.areComments
    }

    /// A repeat of `threadItems` posts or more, a little larger than the candidate, not
    /// comments, half of whose items carry a post header (a `<time>`, an author box): an
    /// article's sections of one shape carry none.
    static func mayHoldThread(_ a: AlternativeEvidence, candidate c: CandidateEvidence, postHeaders: @autoclosure () -> Bool,
                              _ t: Tuning = .standard) -> Bool {
        a.kind == .repeated && a.items >= t.threadItems && a.mass >= t.threadGrowth * Double(c.length) && !a.areComments && postHeaders()
    }

    /// The page's `main` element (`role=main`), holding real text and a fair share of the
    /// candidate's, may stand in for a candidate outside it.
    static func mayStandForMain(_ a: AlternativeEvidence, candidate c: CandidateEvidence, isMain: @autoclosure () -> Bool,
                                _ t: Tuning = .standard) -> Bool {
        a.kind == .semantic && a.mass >= t.mainMinimum && a.mass >= t.mainShare * Double(c.length) && isMain()
    }

    /// Where a measured alternative stands against the candidate, or nil when it cannot be
    /// taken whatever cleaning leaves: too small to grow the candidate `growth` times (and
    /// neither a thread holding it nor the main element outside it), outside the candidate but
    /// neither elsewhere nor beside it, or too small for that. The prose box only stands in for
    /// a candidate it holds. `overlap`: the share of the candidate's text in the alternative;
    /// `linkDensity`: of the alternative's own text, in links.
    static func standing(_ a: AlternativeEvidence, candidate c: CandidateEvidence, mayHoldThread: Bool, mayStandForMain: Bool,
                         overlap: @autoclosure () -> Double, linkDensity: @autoclosure () -> Double,
                         _ t: Tuning = .standard) -> Standing? {
        let length = Double(c.length)
        let grows = a.mass >= t.growth * length
        // The overlap is measured only for a copy that can still pass.
        if !grows && !mayStandForMain && !mayHoldThread { return nil }
        let share = overlap()
        var s = Standing(elsewhere: isElsewhere(a, candidate: c, t), beside: isBeside(a, candidate: c, t))
        s.outsideMain = mayStandForMain && share < t.outsideMainOverlap && linkDensity() < t.mainLinkDensity
        s.holdsThread = mayHoldThread && share >= t.threadOverlap && linkDensity() < t.threadLinkDensity
        if !grows && !s.outsideMain && !s.holdsThread { return nil }
        s.inside = share >= t.insideOverlap
        if !s.inside {
            if (s.elsewhere || s.beside) && a.mass < t.elsewhereGrowth * length && !s.outsideMain { return nil }
            if !s.elsewhere && !s.beside && !s.outsideMain { return nil }
            if a.kind == .prose { return nil }
        }
        return s
    }

    /// What the cleaned copy must keep to be taken: `mainKept` for the main element standing in
    /// for a candidate outside it; else against the candidate's text, for a thread a little
    /// more than it and most of its own text, `growth` times it for a copy holding it,
    /// `besideGrowth` beside it, `elsewhereGrowth` elsewhere; nothing against a candidate not
    /// measured.
    static func needed(_ s: Standing, _ a: AlternativeEvidence, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Double {
        if s.outsideMain { return t.mainKept }
        guard isMeasured(c, t) else { return 0 }
        let r = Double(c.length)
        if s.holdsThread { return min(t.growth * r, max(t.threadGrowth * r, t.threadKept * a.mass)) }
        return s.inside ? t.growth * r : s.beside ? t.besideGrowth * r : t.elsewhereGrowth * r
    }

    /// Whether the cleaned copy (its text `length`) is taken (the prose box standing in for a
    /// candidate that held part of a split article: trafilatura-eval 0.9258 → 0.9261, wcxb-dev
    /// 0.8629 → 0.8645, 11 pages up, 4 down): it keeps what `needed` asks; the
    /// prose box still holds `insideOverlap` of the candidate's text and adds text of its own
    /// rather than a second copy of it (`proseRepeated`); a container elsewhere is prose, not
    /// links. `proseShares`: of the candidate's text in the copy, of the copy's that is the
    /// candidate's; `linkDensity`: of the cleaned copy.
    static func takesCleaned(_ s: Standing, _ a: AlternativeEvidence, candidate c: CandidateEvidence, length: Int, needed: Double,
                             proseShares: @autoclosure () -> (ofCandidate: Double, ofOwn: Double),
                             linkDensity: @autoclosure () -> Double, _ t: Tuning = .standard) -> Bool {
        guard Double(length) >= needed else { return false }
        guard isMeasured(c, t), !s.outsideMain else { return true }
        if s.inside && a.kind == .prose {
            let o = proseShares()
            if o.ofOwn > t.proseRepeated || o.ofCandidate < t.insideOverlap { return false }
        }
        if !s.inside && !s.beside && linkDensity() >= t.elsewhereLinkDensity { return false }
        return true
    }

    /// A page that declares itself a thread (JSON-LD) keeps its posts when, cleaned, they hold
    /// at least the candidate's text.
    static func declaredThreadWins(threadLength: Int, candidate c: CandidateEvidence) -> Bool {
        threadLength >= c.length
    }

    /// A repeat the survey takes as posts: enough items or text, and not a list of links.
    static func isPosts(items: Int, mass: Double, linkDensity: Double, _ t: Tuning = .standard) -> Bool {
        (items >= t.postsItems || mass >= t.postsMass) && linkDensity < t.postsLinkDensity
    }

    /// Whether the body may be a page of sections once cleaned (`headings` in all, `text`
    /// outside its furniture): enough headings for its text. Decides whether it is copied.
    static func mayBeSectioned(headings: Int, text: Int, _ t: Tuning = .standard) -> Bool {
        guard headings >= t.sectionedHeadings else { return false }
        return Double(text) <= t.sectionedSlack * Double(sectionedMost(headings: headings, t))
    }

    /// The most text a body with `headings` may keep and be dense with headings.
    static func sectionedMost(headings: Int, _ t: Tuning = .standard) -> Int {
        headings * 1000 / t.sectionedDensity
    }

    /// Whether a body with `headings` can be dense enough with them and still hold
    /// `sectionedGrowth` times the candidate: if not, it is not cleaned.
    static func sectionedMayWin(headings: Int, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        Double(sectionedMost(headings: headings, t)) >= t.sectionedGrowth * Double(c.length)
    }

    /// A page of many headed sections (a service, landing or category page: about a quarter of
    /// the pages have a body worth copying) whose cleaned body
    /// (`length`) holds `sectionedGrowth` times the candidate and is dense with headings:
    /// Readability took one section; the sections together are the content.
    static func sectionedPageWins(headings: Int, length: Int, candidate c: CandidateEvidence, _ t: Tuning = .standard) -> Bool {
        let most = sectionedMost(headings: headings, t)
        return Double(length) >= t.sectionedGrowth * Double(c.length) && length <= most && length > 0
    }
}
