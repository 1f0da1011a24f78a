// _prepArticle: cleans the grabbed article for display: styles, data tables, lazy images,
// junk elements, share widgets, headers, empty paragraphs, stray <br>s, one-cell tables.
import HTML

extension Readability {
    static let presentationalAttributes = [
        "align", "background", "bgcolor", "border", "cellpadding", "cellspacing", "frame", "hspace",
        "rules", "style", "valign", "vspace",
    ]
    static let deprecatedSizeAttributeElems: Set<String> = ["table", "th", "td", "hr", "pre"]

    func prepArticle(_ articleContent: Node) {
        cleanStyles(articleContent)
        markDataTables(articleContent)
        fixLazyImages(articleContent)

        cleanConditionally(articleContent, "form")
        cleanConditionally(articleContent, "fieldset")
        // One walk for Readability.js's five _clean calls: a node inside an element removed
        // earlier in that sequence is gone from the article either way.
        clean(articleContent, ["object", "embed", "footer", "link", "aside"])

        // Share widgets with little text, below the top-level children.
        let shareElementThreshold = 500
        for topCandidate in articleContent.children {
            cleanShareElements(below: topCandidate, threshold: shareElementThreshold)
        }

        clean(articleContent, ["iframe", "input", "textarea", "select", "button"])
        cleanHeaders(articleContent)

        cleanConditionally(articleContent, "table")
        cleanConditionally(articleContent, "ul")
        cleanConditionally(articleContent, "div")

        replaceNodeTags(elements(articleContent, "h1"), "h2")

        removeNodes(elements(articleContent, "p")) { paragraph in
            countElements(paragraph, "img", "embed", "object", "iframe") == 0
                && !self.hasNonSpaceText(paragraph)
        }

        for br in elements(articleContent, "br") {
            if let next = nextNode(br.nextSibling), next.isHTML("p") { br.remove() }
        }

        // Single-cell tables become their cell's content.
        for table in elements(articleContent, "table") {
            let tbody = hasSingleTagInsideElement(table, "tbody") ? (table.firstElementChild ?? table) : table
            guard hasSingleTagInsideElement(tbody, "tr"), let row = tbody.firstElementChild,
                  hasSingleTagInsideElement(row, "td"), let cellNode = row.firstElementChild else { continue }
            let allPhrasing = cellNode.childNodes.allSatisfy { isPhrasingContent($0) }
            let cell = setNodeTag(cellNode, allPhrasing ? "p" : "div")
            table.parent?.replaceChild(cell, table)
        }
    }

    /// `_cleanStyles`: presentational attributes off, except inside <svg>.
    func cleanStyles(_ e: Node) {
        // By index: a handle (a reference count) only for the elements whose attributes change.
        let doc = e.document
        var stack = [e.index]
        while let index = stack.popLast() {
            let name = doc.nameID(at: index)
            if name == TagID.svg { continue }
            for attribute in Readability.presentationalAttributesPresent(at: index, in: doc) {
                doc.node(at: index).removeAttribute(attribute)
            }
            if doc.namespace(at: index) == .html && Readability.deprecatedSizeAttributeTags.contains(name) {
                let node = doc.node(at: index)
                node.removeAttribute("width")
                node.removeAttribute("height")
            }
            var child = doc.lastChild(at: index)
            while child >= 0 {
                if doc.kind(at: child) == .element { stack.append(child) }
                child = doc.previousSibling(at: child)
            }
        }
    }

    static let deprecatedSizeAttributeTags = TagSet(Array(deprecatedSizeAttributeElems))

    /// The presentational attributes `node` has, read from one look at its attribute list
    /// (the names are lowercase, so they match as `hasAttribute` would).
    static func presentationalAttributesPresent(at index: Int32, in document: Document) -> [String] {
        // A prefixed name ("xlink:href") never equals one of these.
        document.withAttributes(at: index) { attributes in
            var present: [String] = []
            for i in attributes.indices where attributes[i].prefix == nil && isPresentational(attributes[i].name)
                && !present.contains(attributes[i].name) {
                present.append(attributes[i].name)
            }
            return present
        }
    }

    /// One of `presentationalAttributes`.
    static func isPresentational(_ name: String) -> Bool {
        switch name {
        case "align", "background", "bgcolor", "border", "cellpadding", "cellspacing", "frame", "hspace",
             "rules", "style", "valign", "vspace":
            return true
        default:
            return false
        }
    }

    /// `_clean` for each of `tags`: removes those elements, keeping allowed videos among embeds.
    func clean(_ e: Node, _ tags: [String]) {
        removeNodes(elements(e, tags)) { element in
            let tag = element.localName
            if tag == "object" || tag == "embed" || tag == "iframe" {
                for attr in element.attributes where self.options.allowedVideoRegex(attr.value) { return false }
                // Readability.js also checks `tagName === "object"` against innerHTML, which never
                // matches (tagName is upper case), so that check is left out.
            }
            return true
        }
    }

    /// `_cleanMatchedNodes` with the share-widget filter: elements under `e` whose class and id
    /// name a share widget and whose text is shorter than `threshold` go.
    func cleanShareElements(below e: Node, threshold: Int) {
        // By index, with one match-string buffer: most elements are only looked at.
        let top = e.index
        let endOfSearchMarkerNode = doc.nextElement(after: top, skippingChildren: true)
        var next = doc.nextElement(after: top)
        var match: [UInt8] = []
        while next >= 0 && next != endOfSearchMarkerNode {
            Matching.matchString(of: next, in: doc, into: &match)
            if Matching.isShareElement(lowered: match) && rawTextLength(doc.node(at: next)) < threshold {
                next = removeAndGetNext(next)
            } else {
                next = doc.nextElement(after: next)
            }
        }
    }

    /// `_cleanHeaders`: h1/h2 with a negative class weight go.
    func cleanHeaders(_ e: Node) {
        removeNodes(elements(e, "h1", "h2")) { self.getClassWeight($0) < 0 }
    }

    /// `_fixLazyImages`: lazy-loading attributes become src/srcset.
    func fixLazyImages(_ root: Node) {
        for elem in elements(root, "img", "picture", "figure") {
            // Only <img> has the `src`/`srcset` properties Readability.js reads here.
            let isImg = elem.isHTML("img")
            if isImg, let src = elem.getAttribute("src"), !src.isEmpty, let mime = Readability.base64DataURLPrefix(src) {
                if mime.type == "image/svg+xml" { continue }
                var srcCouldBeRemoved = false
                for attr in elem.attributes where attr.name != "src" {
                    if Matching.hasImageExtension(attr.value) { srcCouldBeRemoved = true; break }
                }
                if srcCouldBeRemoved && src.utf16.count - mime.prefixLength < 133 {
                    elem.removeAttribute("src")
                }
            }
            let src = isImg ? elem.getAttribute("src") ?? "" : ""
            let srcset = isImg ? elem.getAttribute("srcset") ?? "" : ""
            if (!src.isEmpty || (!srcset.isEmpty && srcset != "null")) && !elem.className.lowercased().containsBytes("lazy") {
                continue
            }
            for attr in elem.attributes {
                if attr.name == "src" || attr.name == "srcset" || attr.name == "alt" { continue }
                var copyTo: String?
                if Matching.looksLikeSrcset(attr.value) {
                    copyTo = "srcset"
                } else if Matching.looksLikeImageURL(attr.value) {
                    copyTo = "src"
                }
                guard let copyTo else { continue }
                if elem.isHTML("img") || elem.isHTML("picture") {
                    elem.setAttribute(copyTo, attr.value)
                } else if elem.isHTML("figure") && elements(elem, "img", "picture").isEmpty {
                    let img = doc.createElement("img")
                    img.setAttribute(copyTo, attr.value)
                    elem.appendChild(img)
                }
            }
        }
    }

    /// `/^data:\s*([^\s;,]+)\s*;\s*base64\s*,/i`: the MIME type and the prefix length (UTF-16).
    static func base64DataURLPrefix(_ s: String) -> (type: String, prefixLength: Int)? {
        let scalars = Array(s.unicodeScalars)
        var i = 0
        func skipSpace() { while i < scalars.count, JSString.isSpace(scalars[i]) { i += 1 } }
        func expect(_ word: String) -> Bool {
            for w in word.unicodeScalars {
                guard i < scalars.count, String(scalars[i]).lowercased() == String(w) else { return false }
                i += 1
            }
            return true
        }
        guard expect("data:") else { return nil }
        skipSpace()
        let typeStart = i
        while i < scalars.count, !JSString.isSpace(scalars[i]), scalars[i] != ";", scalars[i] != "," { i += 1 }
        guard i > typeStart else { return nil }
        let type = String(String.UnicodeScalarView(scalars[typeStart..<i]))
        skipSpace()
        guard expect(";") else { return nil }
        skipSpace()
        guard expect("base64") else { return nil }
        skipSpace()
        guard expect(",") else { return nil }
        let prefixLength = String(String.UnicodeScalarView(scalars[0..<i])).utf16.count
        return (type, prefixLength)
    }
}
