// Tuning: every threshold the piper mode's rules decide by, with its default and why it is what
// it is. Scores are word F1 (wcxb-dev) and snippet F1 (trafilatura-eval) from ../shared, measured
// when the value was set; "bytes" are non-space bytes of text (`TextMass`, `TextTable`).
// The pipeline receives its `Tuning` (`ArticlePipeline.tuning`, `Extraction.extract(tuning:)`)
// and hands it to every stage and rule that decides by a threshold; `standard` is what shares
// and `piper extract` run with, so a change to a threshold is a change to one line here. A
// development run overrides values by name from a file without a rebuild (`Tuning+Fields`:
// `piper extract --tuning FILE`, `piper-bench-extraction --tuning FILE`, scripts/tune-extraction).
// The search (6 December 2026: 438 one-field variants of all 114 values screened on every 6th
// page, 9 shortlisted fold by fold and 6 combinations confirmed on all 2,291 pages; 62 minutes on
// the shared machine) changed none: its held-back folds read trafilatura-eval 0.9370 ± 0.0071
// and wcxb-dev 0.8715 ± 0.0097, the standard values 0.9370 ± 0.0071 and 0.8716 ± 0.0096. Chosen on
// all five folds, `trailingBlocksShare` 0.075 scores 0.9374 / 0.8722 against 0.9371 / 0.8716,
// but run on four folds at a time the procedure chose other values, which tied or lost on the
// held-back fold: a value is kept only when the held-back folds approve it.

/// The piper mode's thresholds, one named value each.
public struct Tuning: Sendable, Equatable {
    /// The values the extraction runs with.
    public static let standard = Tuning()

    /// The standard values.
    public init() {}

    // MARK: Choice: Readability's candidate against the alternatives (`ChoiceRules`)

    /// A candidate under this many bytes is treated as nothing found: any alternative that
    /// keeps text stands in for it (a notice, a caption).
    var candidateMinimum = 250
    /// An alternative holding Readability's text stands in for it when, cleaned, it holds this
    /// many times as much: the other posts of a thread, the rest of a split body.
    var growth = 1.5
    /// This share of Readability's text in an alternative makes the alternative hold it.
    var insideOverlap = 0.7
    /// A named or semantic container may stand in for a candidate it does not hold when the
    /// candidate is shorter than this (a teaser or notice beside the article) ...
    var elsewhereCandidate = 1000
    /// ... and the container holds this many times the candidate's text (raw and cleaned).
    var elsewhereGrowth = 3.0
    /// Three times the candidate's text elsewhere on the page must be prose: under this share
    /// of the cleaned container in links.
    var elsewhereLinkDensity = 0.3
    /// A repeat or listing beside a candidate shorter than this (a few lines: one sidebar box)
    /// is the content, unless its items are comments ...
    var besideCandidate = 600
    /// ... when, cleaned, it holds this many times the candidate's text (raw: `elsewhereGrowth`).
    var besideGrowth = 2.0
    /// A link-dense listing stands in only for a candidate under this many bytes.
    var listingCandidate = 1500

    /// A named container confirms a candidate of this many bytes or more ...
    var confirmingCandidate = 1000
    /// ... that is smaller than this many times the candidate's text ...
    var confirmingSize = 2.0
    /// ... when it holds this share of the candidate's text ...
    var confirmingOverlap = 0.9
    /// ... and this share of its own text is the candidate's. A larger `main`/`article`
    /// around both then adds the page's furniture, and may not replace the candidate.
    var confirmingOwnShare = 0.8

    /// A repeat of this many posts or more may stand in for the candidate as a thread ...
    var threadItems = 4
    /// ... when this share of Readability's text is in it ...
    var threadOverlap = 0.8
    /// ... under this share of its text is in links ...
    var threadLinkDensity = 0.5
    /// ... and cleaned it holds this many times Readability's text (a little more) ...
    var threadGrowth = 1.02
    /// ... and this share of its own. (wcxb-dev 0.8556 → 0.8569, forum 0.788 → 0.797, 17 pages
    /// up, 8 down; without the post-header test trafilatura-eval fell 0.9229 → 0.9216.)
    var threadKept = 0.7

    /// A candidate is outside the page's `main` element when under this share of its text is
    /// in it (a notice bar, a sidebar box) ...
    var outsideMainOverlap = 0.3
    /// ... and the main element stands in for it when it holds this many bytes ...
    var mainMinimum = 500.0
    /// ... this share of the candidate's text ...
    var mainShare = 0.3
    /// ... under this share of it in links ...
    var mainLinkDensity = 0.5
    /// ... and, cleaned, at least this many bytes.
    var mainKept = 250.0

    /// The prose box stands in only while at most this share of its cleaned text is
    /// Readability's: two articles that render their text twice, once hidden, fell 0.99 → 0.65
    /// without it.
    var proseRepeated = 0.8

    /// A candidate under this many bytes may be a box of furniture (an author box, a cookie
    /// notice, a sidebar widget): trafilatura-eval 0.9266 → 0.9276, wcxb-dev 0.86453 → 0.86465.
    var furnitureCandidate = 1000
    /// The element holding this share of a box's text stands for it in the furniture test.
    var furnitureShare = 0.75
    /// A candidate with this share of its text in a footer of the page is in the footer
    /// (wcxb-dev 0.8652 → 0.8680: 5 empty-reference pages 0 → 1).
    var inFooter = 0.8

    /// A page of sections has at least this many headings ...
    var sectionedHeadings = 5
    /// ... and one heading for every 1,000 / this many bytes its cleaned body keeps (six per
    /// kilobyte: a heading over every paragraph or two) ...
    var sectionedDensity = 6
    /// ... and the cleaned body holds this many times Readability's candidate (an article's
    /// body adds sidebars and teasers to a candidate that holds most of its prose, and stays
    /// under it).
    var sectionedGrowth = 2.5
    /// The body is copied only when its text outside navigation, headers, footers, asides and
    /// forms is at most this many times what its headings allow: cleaning keeps more than three
    /// fifths of it on the pages the rule takes, and most pages with five headings are not copied.
    var sectionedSlack = 1.6

    /// A repeat's items are a thread's posts when this share of them carries a post header (a
    /// `<time>`, an author or date box); an article's sections of one shape carry none.
    var postHeaderShare = 0.5
    /// Captions holding this share of the container's text are the article (a gallery told in
    /// its captions) and stay in the text (trafilatura-eval 0.925 → 0.926).
    var captionsArticleShare = 0.5
    /// The page shows its summary when an element holds it in at most this many times its length.
    var summaryShownSlack = 2
    /// A shown panel's hidden wrappers are shown up to this many levels up (wcxb-dev 0.8594 →
    /// 0.8596).
    var panelWrappers = 2
    /// At most this many standfirsts are noted per page.
    var standfirstsPerPage = 3
    /// A repeat's parent within this many levels of a box named as navigation (`nav`, sidebar,
    /// footer, breadcrumbs, pagination) is in the furniture (a site menu replaced a teaser).
    var navigationDepth = 2
    /// A repeat is a thread's posts when it has this many items ...
    var postsItems = 3
    /// ... or this many bytes, ...
    var postsMass = 1500.0
    /// ... and under this share of its text is in links.
    var postsLinkDensity = 0.6

    // MARK: Roles: content, boilerplate or caption (`RoleRules`)

    /// An element holding more than this share of the container's text is content whatever it
    /// looks like (a furniture element or role only when its text outside links is that much).
    var protectedShare = 0.3
    /// A picture's legend (a styled run after the picture) is at most this many bytes:
    /// trafilatura-eval 0.93544 → 0.93641 (5 false positives gone on 4 pages).
    var legendLength = 300
    /// Outside the span a furniture name is believed even over prose for boxes under this
    /// share of the text (an author's bio, a sign-up pitch).
    var outsideShare = 0.15
    /// Link lists and "Label: link" promos are boilerplate under this share of the text ...
    var promoShare = 0.2
    /// ... with more than this share of their text in links ...
    var promoLinkDensity = 0.5
    /// ... and, for a list, at least this many links.
    var promoLinks = 2
    /// A "Label: <a>headline</a>" promo is shorter than this many bytes ...
    var promoLength = 210
    /// ... and its label shorter than this many characters ("PUEDES VER:"; trafilatura-eval
    /// 0.93172 → 0.93210).
    var promoLabel = 40
    /// A "Label: <a>value</a>" line ("Language: Spanish", "Author: H. G. Parry") in an item of a
    /// list of `listingItems` items or more that holds this share of the container's text or
    /// more stays: the article is mostly that list, and the labels are its items' own; 0: such
    /// lines go as promos. Off: cross-validated at 0.3 and 0.5, it changes 5 wcxb-dev articles
    /// (4443 0.943 → 0.999; 1657, 4601 a little lower) and no trafilatura-eval page; held back,
    /// trafilatura-eval 0.9364 and wcxb-dev 0.8716 either way (no gain on both). The larger
    /// losses of such pages (wcxb-dev 4555, 0461: a query loop's "Language:", "Author:" lines)
    /// are not this rule's: their labels go another way.
    var articleListLabels = 0.0
    /// A date line is at most this many bytes ...
    var dateLineLength = 80
    /// ... with at least this many figures ...
    var dateLineDigits = 4
    /// ... making at least this share of it ("23.10.2018", "Updated 5. Mai, 14:03").
    var dateLineDigitShare = 0.35
    /// A furniture-named box inside the span stays when it is mostly prose: at least this many
    /// bytes ...
    var mostlyProseLength = 85
    /// ... under this share in links ...
    var mostlyProseLinkDensity = 0.25
    /// ... and this share of it in paragraphs of prose.
    var mostlyProseShare = 0.6
    /// A paragraph counts as prose from this many bytes ...
    var proseParagraph = 50
    /// ... with under this share in links.
    var proseParagraphLinkDensity = 0.3
    /// A header's standfirst is a paragraph of this many bytes, under `proseParagraphLinkDensity`
    /// in links: such a header is judged part by part.
    var standfirstParagraph = 80
    /// An inline element is part of its sentence when its parent holds twice its text and this
    /// many bytes more ...
    var inlineSentenceExtra = 60
    /// ... under this share in links (a dateline span, a name in a sentence).
    var inlineSentenceLinkDensity = 0.5
    /// A removed box with more than this share of its text in links takes the heading that
    /// only introduced it ("Trending now"; trafilatura-eval 2 pages up, none down).
    var introducedListLinkDensity = 0.5
    /// A child repeating an earlier sibling word for word goes from this many bytes (wcxb-dev
    /// 0.86853 → 0.86986, 31 pages up, 6 down; from 30 bytes, 14 down).
    var repeatedBlock = 60

    // MARK: The main span (`MainSpan`)

    /// A child holding this share of the container's prose carries the span.
    var carrierShare = 0.65
    /// A container with less prose than this many bytes has no span.
    var spanMinimum = 400
    /// A child with this share of the prose ...
    var substantialShare = 0.03
    /// ... and at least this many bytes is a paragraph of the text.
    var substantialMinimum = 80.0

    // MARK: The survey (`SurveyRules`): the page before Readability

    /// A `<noscript>` of this many bytes or more ...
    var scriptlessMinimum = 200
    /// ... holding this share of the body's text is the page as it reads without scripts
    /// (trafilatura-eval 0.93106 → 0.93172: an article Readability had replaced with the menu).
    var scriptlessShare = 0.5
    /// A modal box (dialog, `aria-modal`) of this many bytes or more ...
    var dialogMinimum = 100
    /// ... under this share of the body's text is a banner or prompt over the page; a larger one
    /// is the page (and so for `role=contentinfo` footers).
    var dialogShare = 0.5
    /// A form holding this share of the body's text is the page, not furniture.
    var pageFormShare = 0.5
    /// A named or semantic container holds at least this many bytes ...
    var containerMinimum = 200
    /// ... and a named one under this share in links.
    var containerLinkDensity = 0.5
    /// An inner container holding this share of the best one's text outside links stands for it.
    var innerShare = 0.9
    /// A parent of repeated items holds this many bytes or more ...
    var repeatParent = 300
    /// ... and its children join a shape's group from this many bytes.
    var repeatChild = 15
    /// A repeat's items hold this share of their parent's text (page columns hold less).
    var repeatShare = 0.5
    /// A listing has this many items or more ...
    var listingItems = 4
    /// ... none holding more than this share of their text ...
    var listingLargest = 0.5
    /// ... and items named for their grid column are a listing only when this share of their
    /// text is links (a shop's product cards).
    var listingLayoutLinkDensity = 0.3
    /// A post holds this many bytes or more ...
    var postItem = 60
    /// ... none more than this share of the posts' text (one column holding the article is no
    /// post) ...
    var postsLargest = 0.75
    /// ... and unnamed items (no class) are posts only from this many.
    var unnamedPosts = 3
    /// A copy's `<noscript>` of this many bytes or more holding `scriptlessShare` of the copy's
    /// text is its posts rendered for crawlers (Flarum); any other is removed.
    var copyScriptlessMinimum = 200

    // MARK: Teasers after the chosen article (`TeaserRules`)

    /// A teaser grid is a box of this many bytes or more ...
    var gridMinimum = 150
    /// ... with this many cards or more ...
    var gridCards = 3
    /// ... together this share of its text, half of them with a picture (trafilatura-eval
    /// 0.92975 → 0.93086, 7 false positives gone, 1 snippet lost).
    var gridShare = 0.8
    /// A teaser card holds at most this many bytes.
    var teaserCard = 600
    /// A trailing box beside the span with more than this share in links, of `trailingBox`
    /// bytes or more and under `trailingShare` of the text, is a list of teasers
    /// (trafilatura-eval 0.9290 → 0.9298).
    var trailingLinkDensity = 0.6
    var trailingBox = 40
    var trailingShare = 0.5
    /// A card's headline is this many bytes or more ...
    var cardHeadline = 10
    /// ... with this share in a link to another page ...
    var cardHeadlineLinks = 0.9
    /// ... and the card holds at most this many bytes besides it.
    var cardSummary = 400
    /// The text's last paragraph: this many bytes or more, under `proseParagraphLinkDensity`
    /// in links; teaser cards after it go.
    var lastParagraph = 80
    /// The cards after it go while under this share of the container's text (a listing is its
    /// cards) ...
    var cardsShare = 0.5
    /// ... a lone card only under one this-many-th of it.
    var loneCardDivisor = 10

    // MARK: Text (`BlockText`, `Standfirst`, declared descriptions)

    /// A block of this many bytes or more after the last paragraph of prose stays ...
    var trailingBlockKept = 120
    /// ... and the short blocks there stay when they are over this share of the text.
    var trailingBlocksShare = 0.15
    /// A short block there stays as an interior heading ("Step 2" over a short step) when the
    /// block after it ends a sentence and is this many bytes or more; 0: none stays so. Off:
    /// cross-validated over 20, 40 and 80 bytes, the held-back folds read trafilatura-eval
    /// 0.9364 against 0.9370 and wcxb-dev 0.8718 against 0.8716.
    var trailingHeadingIntroduces = 0
    /// A block of an article's text this many bytes or more that repeats an earlier one word
    /// for word leaves it (a template's lorem-ipsum paragraphs); 0: an article keeps its
    /// repeats. Off: cross-validated over 100 and 250 bytes, the held-back folds read
    /// trafilatura-eval 0.9370 either way (no gain) and wcxb-dev 0.8721 against 0.8716
    /// (documentation pages 0.9186 against 0.9217: a guide repeats its commands on purpose).
    var articleRepeatedBlock = 0
    /// A paragraph of prose is this many bytes or more with a sentence ending in it.
    var proseBlock = 150
    /// A thread's or listing's line of this many bytes or more printed twice is kept once.
    var repeatedLine = 60
    /// A text run this long (non-space bytes) is prose; shorter ones are labels.
    var proseRun = 25
    /// A text piece this long identifies a passage when containers' shares are compared.
    var piece = 20
    /// A standfirst holds this many bytes ...
    var standfirstLengths = 50...700
    /// ... at most this share in links ...
    var standfirstLinkDensity = 0.2
    /// ... and is followed within `standfirstLookahead` elements by a paragraph of this many
    /// bytes (trafilatura-eval 0.9190 → 0.9230).
    var standfirstNext = 70
    var standfirstLookahead = 300
    /// A standfirst is in the text when its first this-many bytes are.
    var standfirstOpening = 40
    /// A declared product description of this many bytes or more ...
    var productDescriptionMinimum = 120
    /// ... is put before a text holding under this share of its words (wcxb-dev 0.8588 → 0.8595).
    var productDescriptionHeld = 0.5
    /// A declared `articleBody` of this many bytes or more ...
    var articleBodyMinimum = 1000
    /// ... replaces a text holding under this share of its words.
    var articleBodyHeld = 0.5
    /// A chosen text under this many bytes is described by the page's summary.
    var shortText = 500
    /// The learned block scorer (`BlockScorer`) drops a block of an article's text whose chance
    /// of belonging to it is under this; 0 turns it off. Off: five-fold cross-validation did
    /// not approve it. Its boosted trees over text, markup and neighbour features, trained on
    /// four folds with the threshold chosen there (0.5 on every fold), read held back
    /// trafilatura-eval 0.9390 ± 0.0062 against 0.9370 ± 0.0071 without it, but wcxb-dev
    /// 0.8698 ± 0.0096 against 0.8716 ± 0.0096 (listing and collection pages lose most).
    var blockScorer = 0.0
    /// Its boosted trees, in `BoostedTrees`' flat layout (`BlockScorer.trained`).
    var blockModel = BlockScorer.trained
    /// 1: the scorer judges only the blocks before the first paragraph of prose and after the
    /// last; 0: every block. Held back, with 0.6 chosen on every fold: trafilatura-eval 0.9396,
    /// wcxb-dev 0.8701 (product pages 0.7063 → 0.7103, listings and collections lower).
    var blockScorerEdges = 0
    /// A winning listing is widened to its heading up to this many levels up ...
    var introDepth = 4
    /// ... with at most this many bytes before the cards (wcxb-dev listing 0.707 → 0.712).
    var introLength = 2000
}
