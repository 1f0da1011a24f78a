// Document preparation before grabArticle: _unwrapNoscriptImages, _removeScripts,
// _prepDocument (styles out, <br> chains into paragraphs, <font> into <span>).
import HTML

extension Readability {
    /// `_removeNodes` without a filter, back to front.
    func removeNodes(_ nodes: [Node], where filter: ((Node) -> Bool)? = nil) {
        for node in nodes.reversed() where node.parent != nil {
            if filter?(node) ?? true {
                invalidateTextLengths(above: node)
                node.remove()
            }
        }
    }

    /// `_replaceNodeTags`.
    func replaceNodeTags(_ nodes: [Node], _ tag: String) {
        for node in nodes { setNodeTag(node, tag) }
    }

    /// `_removeScripts`, plus comments (they would split text runs and paragraphs).
    func removeScripts() {
        removeNodes(elements(doc.node, "script", "noscript"))
        var comments: [Node] = []
        for n in doc.node.descendants where n.kind == .comment { comments.append(n) }
        for c in comments { c.remove() }
    }

    /// `_prepDocument`.
    func prepDocument() {
        removeNodes(elements(doc.node, "style"))
        if let body = doc.body { replaceBrs(body) }
        replaceNodeTags(elements(doc.node, "font"), "span")
    }

    /// `_replaceBrs`: two or more successive <br>s become one <p> holding what follows.
    func replaceBrs(_ elem: Node) {
        for br in elements(elem, "br") {
            var next = br.nextSibling
            var replaced = false
            while let n = nextNode(next), n.isHTML("br") {
                replaced = true
                let sibling = n.nextSibling
                n.remove()
                next = sibling
            }
            guard replaced, let parent = br.parent else { continue }
            let p = doc.createElement("p")
            parent.replaceChild(p, br)
            next = p.nextSibling
            while let n = next {
                if n.isHTML("br"), let after = nextNode(n.nextSibling), after.isHTML("br") { break }
                if !isPhrasingContent(n) { break }
                let sibling = n.nextSibling
                p.appendChild(n)
                next = sibling
            }
            while let last = p.lastChild, isWhitespace(last) { last.remove() }
            if let container = p.parent, container.isHTML("p") { setNodeTag(container, "div") }
        }
    }

    /// `_isSingleImage`.
    func isSingleImage(_ node: Node) -> Bool {
        var current: Node? = node
        while let n = current {
            if n.isHTML("img") { return true }
            if n.childElementCount != 1 || !JSString.trim(n.textContent).isEmpty { return false }
            current = n.firstElementChild
        }
        return false
    }

    /// `_unwrapNoscriptImages`: placeholder images out, <noscript> images in.
    func unwrapNoscriptImages() {
        for img in elements(doc.node, "img") {
            var keep = false
            for attr in img.attributes {
                switch attr.name {
                case "src", "srcset", "data-src", "data-srcset": keep = true
                default: if Matching.hasImageExtension(attr.value) { keep = true }
                }
                if keep { break }
            }
            if !keep { img.remove() }
        }

        for noscript in elements(doc.node, "noscript") {
            guard isSingleImage(noscript) else { continue }
            let tmp = doc.createElement("div")
            tmp.innerHTML = noscript.innerHTML
            guard let prevElement = noscript.previousElementSibling, isSingleImage(prevElement) else { continue }
            let prevImg = prevElement.isHTML("img") ? prevElement : elements(prevElement, "img").first
            guard let prevImg, let newImg = elements(tmp, "img").first else { continue }
            for attr in prevImg.attributes where !attr.value.isEmpty {
                guard attr.name == "src" || attr.name == "srcset" || Matching.hasImageExtension(attr.value) else { continue }
                if newImg.getAttribute(attr.name) == attr.value { continue }
                let name = newImg.hasAttribute(attr.name) ? "data-old-" + attr.name : attr.name
                newImg.setAttribute(name, attr.value)
            }
            if let replacement = tmp.firstElementChild, let parent = prevElement.parent {
                parent.replaceChild(replacement, prevElement)
            }
        }
    }
}
