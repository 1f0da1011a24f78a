// _postProcessContent: absolute URLs, nested single-child elements simplified, classes
// stripped (except "page" and classesToPreserve) unless keepClasses.
import HTML

extension Readability {
    func postProcessContent(_ articleContent: Node) {
        fixRelativeUris(articleContent)
        simplifyNestedElements(articleContent)
        if !options.keepClasses { cleanClasses(articleContent) }
    }

    /// The document's base URL: the first <base href> resolved against the document URL.
    var baseURI: String? {
        guard let documentURI else { return nil }
        if let base = elements(doc.node, "base").first(where: { $0.hasAttribute("href") }),
           let href = base.getAttribute("href"),
           let documentURL = ResolvedURL.parse(documentURI),
           let resolved = ResolvedURL.parse(href, base: documentURL) {
            return resolved.href
        }
        return documentURI
    }

    /// `_fixRelativeUris`.
    func fixRelativeUris(_ articleContent: Node) {
        let baseURI = self.baseURI
        let base = baseURI.flatMap { ResolvedURL.parse($0) }
        let sameAsDocument = baseURI == documentURI
        func toAbsoluteURI(_ uri: String) -> String {
            if sameAsDocument && uri.hasPrefix("#") { return uri }
            guard let base, let resolved = ResolvedURL.resolve(uri, base: base) else { return uri }
            return resolved
        }

        for link in elements(articleContent, "a") {
            guard let href = link.getAttribute("href"), !href.isEmpty else { continue }
            if href.hasPrefix("javascript:") {
                let children = link.childNodes
                if children.count == 1 && children[0].isText {
                    link.parent?.replaceChild(doc.createTextNode(link.textContent), link)
                } else {
                    let container = doc.createElement("span")
                    while let child = link.firstChild { container.appendChild(child) }
                    link.parent?.replaceChild(container, link)
                }
            } else {
                link.setAttribute("href", toAbsoluteURI(href))
            }
        }

        for media in elements(articleContent, "img", "picture", "figure", "video", "audio", "source") {
            if let src = media.getAttribute("src"), !src.isEmpty { media.setAttribute("src", toAbsoluteURI(src)) }
            if let poster = media.getAttribute("poster"), !poster.isEmpty { media.setAttribute("poster", toAbsoluteURI(poster)) }
            if let srcset = media.getAttribute("srcset"), !srcset.isEmpty {
                media.setAttribute("srcset", Readability.rewriteSrcset(srcset, toAbsoluteURI))
            }
        }
    }

    /// `srcset.replace(/(\S+)(\s+[\d.]+[xw])?(\s*(?:,|$))/g, (_, p1, p2, p3) => abs(p1) + (p2 || "") + p3)`
    static func rewriteSrcset(_ srcset: String, _ transform: (String) -> String) -> String {
        let s = Array(srcset.unicodeScalars)
        let n = s.count
        func str(_ a: Int, _ b: Int) -> String { String(String.UnicodeScalarView(s[a..<b])) }
        /// `\s*(?:,|$)` at i: end index or nil.
        func tail(_ i: Int) -> Int? {
            var j = i
            while j < n, JSString.isSpace(s[j]) { j += 1 }
            if j == n { return j }
            return s[j] == "," ? j + 1 : nil
        }
        /// `\s+[\d.]+[xw]` at i: end index or nil.
        func descriptor(_ i: Int) -> Int? {
            var j = i
            while j < n, JSString.isSpace(s[j]) { j += 1 }
            guard j > i else { return nil }
            let digitsStart = j
            while j < n, (s[j] == "." || (s[j].value >= 0x30 && s[j].value <= 0x39)) { j += 1 }
            guard j > digitsStart, j < n, s[j] == "x" || s[j] == "w" else { return nil }
            return j + 1
        }
        var out = ""
        var i = 0
        while i < n {
            var matched = false
            if !JSString.isSpace(s[i]) {
                var urlEnd = i
                while urlEnd < n, !JSString.isSpace(s[urlEnd]) { urlEnd += 1 }
                // Greedy \S+ with backtracking.
                var e = urlEnd
                while e > i {
                    if let d = descriptor(e), let t = tail(d) {
                        out += transform(str(i, e)) + str(e, d) + str(d, t)
                        i = t
                        matched = true
                        break
                    }
                    if let t = tail(e) {
                        out += transform(str(i, e)) + str(e, t)
                        i = t
                        matched = true
                        break
                    }
                    e -= 1
                }
            }
            if !matched {
                out.unicodeScalars.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// `_simplifyNestedElements`: a div/section holding just one div/section is replaced by it.
    func simplifyNestedElements(_ articleContent: Node) {
        var node: Node? = articleContent
        while let current = node {
            if current.parent != nil, current.isHTML("div") || current.isHTML("section"),
               !current.id.hasPrefix("readability") {
                if isElementWithoutContent(current) {
                    node = removeAndGetNext(current)
                    continue
                }
                if hasSingleTagInsideElement(current, "div") || hasSingleTagInsideElement(current, "section"),
                   let child = current.firstElementChild, let parent = current.parent {
                    for attr in current.attributes { child.setAttribute(attr.name, attr.value) }
                    parent.replaceChild(child, current)
                    node = child
                    continue
                }
            }
            node = getNextNode(current)
        }
    }

    /// `_cleanClasses`.
    func cleanClasses(_ root: Node) {
        var stack = [root]
        while let node = stack.popLast() {
            let kept = (node.getAttribute("class") ?? "")
                .split(whereSeparator: { $0.unicodeScalars.allSatisfy(JSString.isSpace) })
                .filter { classesToPreserve.contains(String($0)) }
                .joined(separator: " ")
            if kept.isEmpty {
                node.removeAttribute("class")
            } else {
                node.setAttribute("class", kept)
            }
            var child = node.lastElementChild
            while let c = child {
                stack.append(c)
                child = c.previousElementSibling
            }
        }
    }
}
