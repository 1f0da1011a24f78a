// grabArticle's second half: the common-ancestor rule for close top candidates, climbing to
// better-scoring parents, and joining related siblings into the article.
import HTML

extension Readability {
    /// Picks the final top candidate starting from the best-scored one.
    func chooseTopCandidate(_ best: Node, _ topCandidates: [Node]) -> Node {
        var topCandidate = best
        let topScore = scores[best.index] ?? 0
        let minimumTopCandidates = 3

        // Several close runners-up inside one ancestor: use that ancestor.
        var alternativeCandidateAncestors: [[Node]] = []
        for other in topCandidates.dropFirst() where (scores[other.index] ?? 0) / topScore >= 0.75 {
            alternativeCandidateAncestors.append(getNodeAncestors(other))
        }
        if alternativeCandidateAncestors.count >= minimumTopCandidates {
            var parentOfTopCandidate = topCandidate.parent
            while let parent = parentOfTopCandidate, parent.isElement, !parent.isHTML("body") {
                var lists = 0
                for ancestors in alternativeCandidateAncestors where lists < minimumTopCandidates {
                    if ancestors.contains(parent) { lists += 1 }
                }
                if lists >= minimumTopCandidates {
                    topCandidate = parent
                    break
                }
                parentOfTopCandidate = parent.parent
            }
        }
        if scores[topCandidate.index] == nil { initializeNode(topCandidate) }

        // Climb while the parents' scores rise.
        var parentOfTopCandidate = topCandidate.parent
        var lastScore = scores[topCandidate.index] ?? 0
        let scoreThreshold = lastScore / 3
        while let parent = parentOfTopCandidate, parent.isElement, !parent.isHTML("body") {
            guard let parentScore = scores[parent.index] else {
                parentOfTopCandidate = parent.parent
                continue
            }
            if parentScore < scoreThreshold { break }
            if parentScore > lastScore {
                topCandidate = parent
                break
            }
            lastScore = parentScore
            parentOfTopCandidate = parent.parent
        }

        // An only child gives way to its parent.
        parentOfTopCandidate = topCandidate.parent
        while let parent = parentOfTopCandidate, parent.isElement, !parent.isHTML("body"), parent.childElementCount == 1 {
            topCandidate = parent
            parentOfTopCandidate = topCandidate.parent
        }
        if scores[topCandidate.index] == nil { initializeNode(topCandidate) }
        return topCandidate
    }

    /// Appends the top candidate and its related siblings to `articleContent`.
    func joinSiblings(into articleContent: Node, topCandidate: Node, parent: Node) {
        let topScore = scores[topCandidate.index] ?? 0
        let siblingScoreThreshold = max(10, topScore * 0.2)
        let topClass = topCandidate.className

        for sibling in parent.children {
            var append = false
            if sibling == topCandidate {
                append = true
            } else {
                var contentBonus: Double = 0
                if sibling.className == topClass && !topClass.isEmpty { contentBonus += topScore * 0.2 }
                if let score = scores[sibling.index], score + contentBonus >= siblingScoreThreshold {
                    append = true
                } else if sibling.isHTML("p") {
                    let linkDensity = getLinkDensity(sibling)
                    let nodeContent = getInnerText(sibling)
                    let nodeLength = JSString.length(nodeContent)
                    if nodeLength > 80 && linkDensity < 0.25 {
                        append = true
                    } else if nodeLength < 80 && nodeLength > 0 && linkDensity == 0 && Readability.hasSentenceEnd(nodeContent) {
                        append = true
                    }
                }
            }
            guard append else { continue }
            var node = sibling
            if !(node.namespace == .html && Readability.alterToDivExceptions.contains(node.localName)) {
                node = setNodeTag(node, "div")
            }
            articleContent.appendChild(node)
        }
    }

    /// `nodeContent.search(/\.( |$)/) !== -1`
    static func hasSentenceEnd(_ s: String) -> Bool {
        let b = Array(s.utf8)
        for (i, c) in b.enumerated() where c == 0x2E {
            if i + 1 == b.count || b[i + 1] == 0x20 { return true }
        }
        return false
    }
}
