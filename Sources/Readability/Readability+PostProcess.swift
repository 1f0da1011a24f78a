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
        // ASCII (nearly every srcset): scalar offsets are byte offsets, and pieces are cut from the bytes.
        let bytes = n == srcset.utf8.count ? Array(srcset.utf8) : nil
        func str(_ a: Int, _ b: Int) -> String {
            if let bytes { return String(decoding: bytes[a..<b], as: UTF8.self) }
            return String(String.UnicodeScalarView(s[a..<b]))
        }
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
        // By index: a handle (a reference count) only for the elements with a class attribute.
        let doc = root.document
        var stack = [root.index]
        while let index = stack.popLast() {
            // No class attribute: nothing to remove or keep.
            let hasClass = doc.withAttributes(at: index) { list in
                list.contains { $0.prefix == nil && $0.name.utf8.count == 5 && $0.name == "class" }
            }
            if hasClass, case let node = doc.node(at: index), let className = node.getAttribute("class") {
                let kept = keptClasses(className)
                if kept.isEmpty {
                    node.removeAttribute("class")
                } else {
                    node.setAttribute("class", kept)
                }
            }
            var child = doc.lastChild(at: index)
            while child >= 0 {
                if doc.kind(at: child) == .element { stack.append(child) }
                child = doc.previousSibling(at: child)
            }
        }
    }

    /// The classes of `className` that `classesToPreserve` names, joined by single spaces.
    private func keptClasses(_ className: String) -> String {
        if className.isEmpty || classesToPreserve.isEmpty { return "" }
        var value = className
        // An ASCII list keeps a class only where a preserved name occurs in its bytes: most
        // lists hold none, and give "" unsplit. (With ASCII names on both sides, equal strings
        // are equal bytes.)
        let holdsNone: Bool = value.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            for name in classesToPreserve where !name.isEmpty {
                guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
                if JSString.bytes(bytes, contain: name) { return false }
            }
            return true
        }
        if holdsNone { return "" }
        // ASCII (nearly every class list): split on the bytes of `\s` without building Characters.
        let ascii: [String]? = value.withUTF8 { bytes in
            var tokens: [String] = []
            var start = -1
            for i in 0...bytes.count {
                let b: UInt8 = i < bytes.count ? bytes[i] : 0x20
                if b >= 0x80 { return nil }
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    if start >= 0 {
                        tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                        start = -1
                    }
                } else if start < 0 {
                    start = i
                }
            }
            return tokens
        }
        let tokens = ascii ?? className.split(whereSeparator: { $0.unicodeScalars.allSatisfy(JSString.isSpace) }).map(String.init)
        return tokens.filter { classesToPreserve.contains($0) }.joined(separator: " ")
    }
}
