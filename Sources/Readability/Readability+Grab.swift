// _grabArticle: node prepping, scoring, choosing the top candidate, sibling joining and the
// retries that drop flags one by one.
import HTML

extension Readability {
    static let tagsToScore = TagSet(["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"])
    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]
    static let alterToDivExceptions: Set<String> = ["div", "article", "section", "p", "ol", "ul"]
    static let removedWhenEmpty = TagSet(["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"])

    func grabArticle() -> Node? {
        guard let page = doc.body else { return nil }
        // Readability.js keeps `page.innerHTML` and assigns it back before each retry. A
        // snapshot of the document holds the same tree without serialising and re-parsing it,
        // and costs a copy of the arrays the attempt changes instead of a clone of the body;
        // the body is copied back from it only on a retry, which few pages need.
        let pageCache = doc.snapshot().counterpart(of: page)

        while true {
            let stripUnlikelyCandidates = flagIsActive(.stripUnlikelys)
            let elementsToScore = prepNodes(stripUnlikelyCandidates: stripUnlikelyCandidates)
            let candidates = scoreElements(elementsToScore)

            var topCandidates: [Node] = []
            // Scoring leaves the tree alone, so one walk measures every candidate's link density.
            let densities = LinkDensityIndex(root: doc.node, pieces: textPieces)
            for candidate in candidates {
                let linkDensity = densities.linkDensity(candidate) ?? getLinkDensity(candidate)
                let candidateScore = (scores[candidate.index] ?? 0) * (1 - linkDensity)
                scores[candidate.index] = candidateScore
                for t in 0..<options.nbTopCandidates {
                    if t >= topCandidates.count || candidateScore > (scores[topCandidates[t].index] ?? 0) {
                        topCandidates.insert(candidate, at: min(t, topCandidates.count))
                        if topCandidates.count > options.nbTopCandidates { topCandidates.removeLast() }
                        break
                    }
                }
            }

            var topCandidate: Node
            var neededToCreateTopCandidate = false
            if let first = topCandidates.first, !first.isHTML("body") {
                topCandidate = chooseTopCandidate(first, topCandidates)
            } else {
                topCandidate = doc.createElement("div")
                neededToCreateTopCandidate = true
                while let child = page.firstChild { topCandidate.appendChild(child) }
                page.appendChild(topCandidate)
                initializeNode(topCandidate)
            }

            let articleContent = doc.createElement("div")
            // Readability.js calls _grabArticle() without a page, so its `isPaging` test
            // (`page !== null`) is true and the container gets this id.
            articleContent.setAttribute("id", "readability-content")
            let parentOfTopCandidate = topCandidate.parent
            if let parentOfTopCandidate {
                joinSiblings(into: articleContent, topCandidate: topCandidate, parent: parentOfTopCandidate)
            }

            prepArticle(articleContent)

            if neededToCreateTopCandidate {
                topCandidate.setAttribute("id", "readability-page-1")
                topCandidate.setAttribute("class", "page")
            } else {
                let div = doc.createElement("div")
                div.setAttribute("id", "readability-page-1")
                div.setAttribute("class", "page")
                while let child = articleContent.firstChild { div.appendChild(child) }
                articleContent.appendChild(div)
            }

            var result: Node? = articleContent
            let textLength = innerTextLength(articleContent)
            if textLength < options.charThreshold {
                result = nil
                while let child = page.firstChild { child.remove() }
                let fresh = doc.importNode(pageCache)
                while let child = fresh.firstChild { page.appendChild(child) }
                attempts.append((articleContent, textLength))
                if attempts.count >= options.passes { flags = [] }
                if flagIsActive(.stripUnlikelys) {
                    removeFlag(.stripUnlikelys)
                } else if flagIsActive(.weightClasses) {
                    removeFlag(.weightClasses)
                } else if flagIsActive(.cleanConditionally) {
                    removeFlag(.cleanConditionally)
                } else {
                    // Longest text wins; a stable sort keeps the earliest of equals, as JS does.
                    let best = attempts.enumerated().max { a, b in
                        a.element.textLength < b.element.textLength
                            || (a.element.textLength == b.element.textLength && a.offset > b.offset)
                    }
                    guard let best, best.element.textLength > 0 else { return nil }
                    result = best.element.content
                }
            }

            if let result {
                var ancestors: [Node] = []
                if let parentOfTopCandidate { ancestors.append(parentOfTopCandidate) }
                ancestors.append(topCandidate)
                if let parentOfTopCandidate { ancestors += getNodeAncestors(parentOfTopCandidate) }
                for ancestor in ancestors where ancestor.isElement {
                    if let dir = ancestor.getAttribute("dir"), !dir.isEmpty {
                        articleDir = dir
                        break
                    }
                }
                return result
            }
        }
    }

    /// The node-prepping walk: drops hidden, unlikely and empty nodes, notes the byline and
    /// turns paragraph-like divs into <p>; returns the elements to score.
    func prepNodes(stripUnlikelyCandidates: Bool) -> [Node] {
        var elementsToScore: [Node] = []
        var shouldRemoveTitleHeader = true
        // The walk steps by index, and makes a handle only for the elements it changes, keeps
        // or looks into: a handle holds its document, a reference count per visit.
        var node = doc.documentElement?.index ?? -1
        var match: [UInt8] = []

        while node >= 0 {
            let current = node
            // The HTML local name number (-1 for foreign elements), read once per element.
            let tagID = doc.namespace(at: current) == .html ? doc.nameID(at: current) : -1
            if tagID == TagID.html { articleLang = doc.node(at: current).getAttribute("lang") }
            let attributes = PrepAttributes(doc, current, match: &match)

            if !isProbablyVisible(attributes) {
                node = removeAndGetNext(current)
                continue
            }
            if attributes.ariaModal == "true" && attributes.role == "dialog" {
                node = removeAndGetNext(current)
                continue
            }
            if articleByline.isNilOrEmpty && metadata.byline.isNilOrEmpty
                && (Matching.isByline(lowered: match) || attributes.authorAttribute)
                && isValidByline(doc.node(at: current)) {
                let element = doc.node(at: current)
                let end = getNextNode(element, ignoreSelfAndKids: true)
                var next = getNextNode(element)
                var itemPropNameNode: Node?
                while let n = next, n != end {
                    if let itemprop = n.getAttribute("itemprop"), itemprop.containsBytes("name") {
                        itemPropNameNode = n
                        break
                    }
                    next = getNextNode(n)
                }
                articleByline = JSString.trim((itemPropNameNode ?? element).textContent)
                node = removeAndGetNext(current)
                continue
            }
            if shouldRemoveTitleHeader && (tagID == TagID.h1 || tagID == TagID.h2)
                && headerDuplicatesTitle(doc.node(at: current)) {
                shouldRemoveTitleHeader = false
                node = removeAndGetNext(current)
                continue
            }
            if stripUnlikelyCandidates {
                if Matching.isUnlikelyCandidate(lowered: match) && !Matching.isOkMaybeItsACandidate(lowered: match)
                    && tagID != TagID.body && tagID != TagID.a
                    && !hasAncestorTag(doc.node(at: current), "table") && !hasAncestorTag(doc.node(at: current), "code") {
                    node = removeAndGetNext(current)
                    continue
                }
                if let role = attributes.role, Readability.unlikelyRoles.contains(role) {
                    node = removeAndGetNext(current)
                    continue
                }
            }
            if Readability.removedWhenEmpty.contains(tagID), isElementWithoutContent(doc.node(at: current)) {
                node = removeAndGetNext(current)
                continue
            }
            if Readability.tagsToScore.contains(tagID) {
                elementsToScore.append(doc.node(at: current))
            }

            var next = current
            if tagID == TagID.div {
                let element = doc.node(at: current)
                wrapPhrasingContent(element)
                if hasSingleTagInsideElement(element, "p") && getLinkDensity(element) < 0.25,
                   let newNode = element.firstElementChild, let parent = element.parent {
                    parent.replaceChild(newNode, element)
                    next = newNode.index
                    elementsToScore.append(newNode)
                } else if !hasChildBlockElement(element) {
                    let renamed = setNodeTag(element, "p")
                    next = renamed.index
                    elementsToScore.append(renamed)
                }
            }
            node = doc.nextElement(after: next)
        }
        return elementsToScore
    }

    /// `_removeAndGetNext` by index.
    func removeAndGetNext(_ index: Int32) -> Int32 {
        let next = doc.nextElement(after: index, skippingChildren: true)
        doc.node(at: index).remove()
        return next
    }

    /// Puts runs of phrasing content directly inside a <div> into <p>s.
    private func wrapPhrasingContent(_ div: Node) {
        // The children are looked at by index: most are whitespace or blocks, left alone.
        let doc = div.document
        var p: Node?
        var childIndex = doc.firstChild(at: div.index)
        while childIndex >= 0 {
            let nextSibling = doc.nextSibling(at: childIndex)
            defer { childIndex = nextSibling }
            if isPhrasingContent(at: childIndex, in: doc) {
                if let p {
                    p.appendChild(doc.node(at: childIndex))
                } else if !isWhitespace(at: childIndex, in: doc) {
                    let child = doc.node(at: childIndex)
                    let newP = doc.createElement("p")
                    div.replaceChild(newP, child)
                    newP.appendChild(child)
                    p = newP
                }
            } else if let current = p {
                while let last = current.lastChild, isWhitespace(last) { last.remove() }
                p = nil
            }
        }
        // The corpus's Readability.js also trims the last paragraph's trailing whitespace/<br>s.
        if let current = p {
            while let last = current.lastChild, isWhitespace(last) { last.remove() }
        }
    }

    /// `_isValidByline`.
    /// The length test, after the caller has found the byline names or attributes.
    func isValidByline(_ node: Node) -> Bool {
        let length = innerTextLength(node, normalizeSpaces: false)
        return length > 0 && length < 100
    }

    /// `_headerDuplicatesTitle`.
    /// The caller has checked that `node` is an h1 or h2.
    func headerDuplicatesTitle(_ node: Node) -> Bool {
        let heading = getInnerText(node, normalizeSpaces: false)
        return titleSimilarity(heading) > 0.75
    }
}
