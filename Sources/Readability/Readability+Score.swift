// Scoring: _initializeNode, _getClassWeight, _getLinkDensity, _getCharCount (_getTextDensity is
// `textDensity` in +CleanCensus, over the elements it has already collected),
// and the per-paragraph scoring pass of grabArticle.
import HTML

extension Readability {
    /// `_initializeNode`: the tag's base score plus the class weight.
    func initializeNode(_ node: Node) {
        var score: Double = 0
        if node.namespace == .html {
            switch node.localName {
            case "div": score += 5
            case "pre", "td", "blockquote": score += 3
            case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score -= 3
            case "h1", "h2", "h3", "h4", "h5", "h6", "th": score -= 5
            default: break
            }
        }
        score += Double(getClassWeight(node))
        scores[node.index] = score
    }

    /// `_getClassWeight`.
    func getClassWeight(_ e: Node) -> Int {
        if !flagIsActive(.weightClasses) { return 0 }
        var weight = 0
        // Each name lowercased once for both tests.
        let className = e.className
        if !className.isEmpty {
            let lowered = Matching.lowered(className)
            if Matching.isNegative(lowered: lowered) { weight -= 25 }
            if Matching.isPositive(lowered: lowered) { weight += 25 }
        }
        let id = e.id
        if !id.isEmpty {
            let lowered = Matching.lowered(id)
            if Matching.isNegative(lowered: lowered) { weight -= 25 }
            if Matching.isPositive(lowered: lowered) { weight += 25 }
        }
        return weight
    }

    /// `_getLinkDensity`: text inside links over all text (hash links count 0.3).
    /// One walk measures the element's text and finds its links, unless its length is known.
    func getLinkDensity(_ element: Node) -> Double {
        let doc = element.document, top = element.index
        var links: [Int32] = []
        if element.isText || textLengthCache?[top] != nil {
            var n = doc.nextInTree(after: top, within: top)
            while n >= 0 {
                if doc.nameID(at: n) == TagID.a { links.append(n) }
                n = doc.nextInTree(after: n, within: top)
            }
            return linkDensity(element, links: links)
        }
        var scanner = TextScanner(normalizeSpaces: true)
        var n = doc.nextInTree(after: top, within: top)
        while n >= 0 {
            let kind = doc.kind(at: n)
            if kind == .text {
                scanner.add(textPieces.piece(at: n, in: doc))
            } else if kind == .element && doc.nameID(at: n) == TagID.a {
                links.append(n)
            }
            n = doc.nextInTree(after: n, within: top)
        }
        rememberTextLength(scanner.stats.length, of: element)
        let textLength = scanner.stats.length
        if textLength == 0 { return 0 }
        return weightedLinkLength(links, in: doc) / Double(textLength)
    }

    /// Scores each paragraph-like element and adds it to its ancestors; returns the
    /// candidates in the order they were first scored.
    func scoreElements(_ elementsToScore: [Node]) -> [Node] {
        var candidates: [Node] = []
        for element in elementsToScore {
            // The ancestors are read by index; a handle is made for new candidates only.
            let doc = element.document, index = element.index
            let parent = doc.parent(at: index)
            guard parent >= 0, doc.kind(at: parent) == .element else { continue }
            let stats = textStats(at: index, in: doc)
            let length = stats.length
            if length < 25 { continue }

            var contentScore: Double = 1
            contentScore += Double(stats.allCommas + 1)
            contentScore += Double(min(length / 100, 3))

            // `_getNodeAncestors(element, 5)`, each scored as it is reached.
            var ancestor = parent, level = 0
            while ancestor >= 0 && level < 5 {
                let up = doc.parent(at: ancestor)
                if doc.kind(at: ancestor) == .element, up >= 0, doc.kind(at: up) == .element {
                    if scores[ancestor] == nil {
                        let node = doc.node(at: ancestor)
                        initializeNode(node)
                        candidates.append(node)
                    }
                    let divider: Double = level == 0 ? 1 : level == 1 ? 2 : Double(level * 3)
                    scores[ancestor, default: 0] += contentScore / divider
                }
                ancestor = up
                level += 1
            }
        }
        return candidates
    }
}
