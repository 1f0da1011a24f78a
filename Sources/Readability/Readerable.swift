// isProbablyReaderable (Readability-readerable.js): a quick guess whether parse() would find
// an article, without running it.
import HTML

/// Thresholds for `isProbablyReaderable`, with Readability.js's defaults.
public struct ReaderableOptions: Sendable {
    /// Paragraphs shorter than this (after trimming) don't count.
    public var minContentLength: Int = 140
    /// The score the counted paragraphs must exceed together.
    public var minScore: Double = 20
    /// Decides whether a node is visible; nil uses the default check (inline display:none,
    /// `hidden`, aria-hidden without the "fallback-image" class).
    public var visibilityChecker: (@Sendable (Node) -> Bool)? = nil

    /// Options with Readability.js's defaults (140 characters, score 20, no visibility check).
    public init(minContentLength: Int = 140, minScore: Double = 20, visibilityChecker: (@Sendable (Node) -> Bool)? = nil) {
        self.minContentLength = minContentLength
        self.minScore = minScore
        self.visibilityChecker = visibilityChecker
    }
}

/// Readability-readerable.js's default `isNodeVisible`.
public func isNodeVisible(_ node: Node) -> Bool {
    if node.inlineStyle("display") == "none" { return false }
    if node.hasAttribute("hidden") { return false }
    if node.hasAttribute("aria-hidden"), node.getAttribute("aria-hidden") == "true" {
        return node.className.containsBytes("fallback-image")
    }
    return true
}

/// Decides whether the document is probably an article, without parsing the whole thing.
public func isProbablyReaderable(_ doc: Document, options: ReaderableOptions = .init()) -> Bool {
    let isVisible = options.visibilityChecker ?? isNodeVisible
    // "p, pre, article" plus the parents of "div > br", in document order, without duplicates.
    var nodes: [Node] = []
    var seen = Set<Int32>()
    var brParents: [Node] = []
    for n in doc.node.descendants where n.isElement {
        if n.hasTag("p") || n.hasTag("pre") || n.hasTag("article") {
            if seen.insert(n.index).inserted { nodes.append(n) }
        } else if n.hasTag("br"), let parent = n.parent, parent.hasTag("div") {
            brParents.append(parent)
        }
    }
    for parent in brParents where seen.insert(parent.index).inserted { nodes.append(parent) }

    var score: Double = 0
    for node in nodes {
        if !isVisible(node) { continue }
        let matchString = node.className + " " + node.id
        if Matching.isUnlikelyCandidate(matchString) && !Matching.isOkMaybeItsACandidate(matchString) { continue }
        if node.hasTag("p") && hasLIAncestor(node) { continue }
        let length = JSString.length(JSString.trim(node.textContent))
        if length < options.minContentLength { continue }
        score += (Double(length - options.minContentLength)).squareRoot()
        if score > options.minScore { return true }
    }
    return false
}

private func hasLIAncestor(_ node: Node) -> Bool {
    var current = node.parent
    while let n = current {
        if n.hasTag("li") { return true }
        current = n.parent
    }
    return false
}
