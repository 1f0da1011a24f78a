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

    /// The document's <script>s, its <script>s and <noscript>s in order, and its comments.
    func scriptsAndComments() -> (scripts: [Node], scriptsAndNoscripts: [Node], comments: [Node]) {
        var scripts: [Node] = [], all: [Node] = [], comments: [Node] = []
        // By index: a handle per visited node would cost a reference count each.
        var i = doc.nextInTree(after: 0, within: 0)
        while i >= 0 {
            switch doc.kind(at: i) {
            case .element:
                let name = doc.nameID(at: i)
                if name == TagID.script {
                    let n = doc.node(at: i)
                    scripts.append(n)
                    all.append(n)
                } else if name == TagID.noscript {
                    all.append(doc.node(at: i))
                }
            case .comment: comments.append(doc.node(at: i))
            default: break
            }
            i = doc.nextInTree(after: i, within: 0)
        }
        return (scripts, all, comments)
    }

    /// `_removeScripts`, plus comments (they would split text runs and paragraphs).
    func removeScripts(_ found: (scripts: [Node], scriptsAndNoscripts: [Node], comments: [Node])) {
        removeNodes(found.scriptsAndNoscripts)
        for c in found.comments { c.remove() }
    }

    /// `_prepDocument`. Styles and fonts are found in one walk; <br> replacement only moves
    /// nodes, so the fonts found before it are the ones Readability.js finds after it.
    func prepDocument() {
        var styles: [Node] = [], fonts: [Node] = []
        var i = doc.nextInTree(after: 0, within: 0)
        while i >= 0 {
            let name = doc.nameID(at: i)
            if name == TagID.style { styles.append(doc.node(at: i)) } else if name == TagID.font { fonts.append(doc.node(at: i)) }
            i = doc.nextInTree(after: i, within: 0)
        }
        removeNodes(styles)
        if let body = doc.body { replaceBrs(body) }
        replaceNodeTags(fonts.filter { !Readability.isInside($0, any: styles) }, "span")
    }

    /// True when `node` sits inside one of `containers` (which are detached by now).
    static func isInside(_ node: Node, any containers: [Node]) -> Bool {
        if containers.isEmpty { return false }
        return containers.contains { $0.contains(node) }
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
            if n.childElementCount != 1 || hasNonSpaceText(n) { return false }
            current = n.firstElementChild
        }
        return false
    }

    /// `_unwrapNoscriptImages`: placeholder images out, <noscript> images in.
    func unwrapNoscriptImages() {
        // One walk finds both; only an <img> with children (never one the parser made) could
        // take <noscript>s with it, and then they are looked up again.
        let found = elements(doc.node, "img", "noscript")
        var removedImageWithChildren = false
        for img in found where img.localName == "img" {
            var keep = false
            for attr in img.attributes {
                switch attr.name {
                case "src", "srcset", "data-src", "data-srcset": keep = true
                default: if Matching.hasImageExtension(attr.value) { keep = true }
                }
                if keep { break }
            }
            if !keep {
                if img.firstChild != nil { removedImageWithChildren = true }
                img.remove()
            }
        }

        let noscripts = removedImageWithChildren
            ? elements(doc.node, "noscript") : found.filter { $0.localName == "noscript" }
        for noscript in noscripts {
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
