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
            guard let parent = element.parent, parent.isElement else { continue }
            let stats = textStats(element)
            let length = stats.length
            if length < 25 { continue }
            let ancestors = getNodeAncestors(element, maxDepth: 5)
            if ancestors.isEmpty { continue }

            var contentScore: Double = 1
            contentScore += Double(stats.allCommas + 1)
            contentScore += Double(min(length / 100, 3))

            for (level, ancestor) in ancestors.enumerated() {
                guard ancestor.isElement, let up = ancestor.parent, up.isElement else { continue }
                if scores[ancestor.index] == nil {
                    initializeNode(ancestor)
                    candidates.append(ancestor)
                }
                let divider: Double = level == 0 ? 1 : level == 1 ? 2 : Double(level * 3)
                scores[ancestor.index, default: 0] += contentScore / divider
            }
        }
        return candidates
    }
}
