// Evidence: the plain values the measuring layer (the survey, the text table, the span, the
// vocabularies) fills for the rules to decide on. A rule sees only these values (and, for
// measures that cost a walk, a lazily evaluated argument), never the page, so it can be tested
// with a table of values and changed without touching how they are measured.
import HTML

/// What the choice knows of Readability's candidate.
struct CandidateEvidence: Equatable {
    /// Readability returned a container.
    var found: Bool
    /// Its text once cleaned (bytes).
    var length: Int
    /// It is a box of the page's furniture (`ChoiceRules.isFurnitureCandidate`).
    var furniture = false
    /// A named container holding its text and little else confirms it (`ChoiceRules.confirms`).
    var confirmed = false
}

/// What the choice knows of one alternative container before cleaning it.
struct AlternativeEvidence: Equatable {
    var kind: Alternative.Kind
    /// Its text before cleaning (bytes).
    var mass: Double
    /// Its repeated items (a repeat's, a listing's; 0 for the others).
    var items = 0
    /// Its items are named as comments: the replies under an article, not a thread.
    var areComments = false
}

/// Where an alternative stands against Readability's candidate: what decides what its cleaned
/// copy must keep (`ChoiceRules.standing`).
struct Standing: Equatable {
    /// It holds the candidate's text.
    var inside = true
    /// The candidate is short and outside this named or semantic container.
    var elsewhere = false
    /// The candidate is a few lines beside this repeat or listing.
    var beside = false
    /// The candidate lies outside the page's main element, which this is.
    var outsideMain = false
    /// This is a thread of posts holding the candidate's text.
    var holdsThread = false
}

/// What the classifier knows of one element of a container: read from the text table, the
/// span and the element's names (`Classifier.role` fills it in two steps: the names only for
/// elements the earlier rules leave undecided).
struct ElementEvidence {
    /// The tag's interned name number (`Document.knownNameID`).
    var name: Int32
    /// The element's text and the container's (bytes, at least 1).
    var length: Int
    var total: Int
    /// Share of the element's text in links.
    var linkDensity: Double
    /// Where it lies against the main text.
    var region: MainSpan.Region = .inside
    /// The container is a thread or listing.
    var thread = false
    /// The page declares a product.
    var product = false
    /// It is one of the thread's or listing's repeated items.
    var repeatedItem = false
    /// Its `role` is an ARIA furniture role (navigation, complementary …).
    var furnitureRole = false

    /// It carries attributes (most paragraphs, links and emphasis carry none).
    var hasAttributes = false
    /// Its class or id matches the caption vocabulary, or the furniture vocabulary (the
    /// thread's, in a thread); never for a box the microdata calls a description or body.
    var captionNamed = false
    var furnitureNamed = false
    /// It is hidden: `hidden`, `aria-hidden` (but on a link), an inline `display:none`, or a
    /// hiding class.
    var hidden = false

    /// Its share of the container's text.
    var share: Double { Double(length) / Double(total) }

    /// Evidence for a tag by name (tests).
    init(tag: String, length: Int, total: Int, linkDensity: Double = 0, region: MainSpan.Region = .inside) {
        self.init(name: Document.knownNameID(tag) ?? -1, length: length, total: total, linkDensity: linkDensity, region: region)
    }

    init(name: Int32, length: Int, total: Int, linkDensity: Double, region: MainSpan.Region) {
        self.name = name
        self.length = length
        self.total = total
        self.linkDensity = linkDensity
        self.region = region
    }
}
