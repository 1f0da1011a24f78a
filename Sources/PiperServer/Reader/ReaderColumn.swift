import HTML

/// The article's body as the reader page serves it: one column of blocks. A box (`div`,
/// `section`, `article`, `header`, `footer`, `aside`, `main`, `nav`) that holds only other
/// blocks is unwrapped, its blocks kept in order; a box with text of its own stays. What a
/// reader sees is the same (the reader style gives these boxes no look of their own), and a
/// read-later extractor, which keeps the one box its paragraphs share and drops headers,
/// footers and asides as a page's furniture, reads the whole article: on the Readability
/// corpus's reader pages readability-lxml's word F1 goes from 0.9387 to 0.9656 (60 → 68 pages
/// at 0.99 or more) and trafilatura's from 0.9542 to 0.9595 (71 → 72).
enum ReaderColumn {
    static let boxes: Set<String> = ["div", "section", "article", "header", "footer", "aside", "main", "nav"]
    /// Elements that start a block of their own (anything else inside a box is inline content).
    static let blocks: Set<String> = boxes.union([
        "p", "ul", "ol", "li", "dl", "dt", "dd", "table", "figure", "figcaption", "blockquote", "pre",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "form", "details", "summary", "address", "picture",
    ])

    /// `content` (sanitized HTML) with each layout table served as its cells' blocks, every box
    /// that holds only blocks unwrapped, every box of only text served as a paragraph, a heading that is one link served inside the link, each list
    /// item's lone paragraph served as the item's text, and each caption and each of the
    /// sanitizer's stand-ins marked as the figure's.
    static func flatten(_ content: String) -> String {
        let (_, root) = Document.parseFragment(content, context: "div")
        let tables = unwrapLayoutTables(in: root)
        let unwrapped = unwrap(in: root)
        let paragraphs = servesTextBoxesAsParagraphs(in: root)
        let headings = linksAroundHeadings(in: root)
        let items = unwrapItemParagraphs(in: root)
        let captions = markCaptions(in: root)
        let standIns = markStandIns(in: root)
        guard tables || unwrapped || paragraphs || headings || items || captions || standIns else { return content }
        return root.innerHTML
    }

    /// Unwraps the boxes below `node`, innermost first; true when any was.
    @discardableResult
    static func unwrap(in node: Node) -> Bool {
        var changed = false
        for child in node.childNodes where child.isElement {
            if unwrap(in: child) { changed = true }
            guard boxes.contains(child.localName), holdsOnlyBlocks(child) else { continue }
            for grandchild in child.childNodes { _ = node.insertBefore(grandchild, child) }
            child.remove()
            changed = true
        }
        return changed
    }

    static func holdsOnlyBlocks(_ box: Node) -> Bool {
        box.childNodes.allSatisfy { node in
            if node.isElement { return blocks.contains(node.localName) }
            if node.isText { return node.data.allSatisfy(\.isWhitespace) }
            return true   // comments
        }
    }

    /// Serves each box that holds text and nothing but inline content as the paragraph it is
    /// (`<header>A summary under the headline…</header>` as `<p>`), as Readability serves a
    /// `div` of phrasing content: a read-later extractor reads paragraphs, and drops a
    /// `header`, `footer`, `aside` or `nav` as a page's furniture, while everything here is the
    /// article's (trafilatura left out medicalnewstoday's standfirst). True when any was.
    @discardableResult
    static func servesTextBoxesAsParagraphs(in node: Node) -> Bool {
        var changed = false
        _ = textBoxes(in: node, serving: true, changed: &changed)
        return changed
    }

    /// One walk, children first: whether `node`'s subtree holds a block and text that is not
    /// white space, as it stood; each box below it (when `serving`) holding text and no block
    /// is replaced by a paragraph.
    private static func textBoxes(in node: Node, serving: Bool, changed: inout Bool) -> (block: Bool, text: Bool) {
        var block = false, text = false
        for child in node.childNodes {
            if child.isText {
                if !text, !child.data.allSatisfy(\.isWhitespace) { text = true }
                continue
            }
            guard child.isElement else { continue }
            let name = child.localName
            // A paragraph cannot stand in a heading, a paragraph or preformatted text.
            let below = textBoxes(in: child, serving: serving && !phrasingOnly.contains(name), changed: &changed)
            block = block || below.block || blocks.contains(name)
            text = text || below.text
            guard serving, boxes.contains(name), below.text, !below.block else { continue }
            let paragraph = child.document.createElement("p")
            while let grandchild = child.firstChild { _ = paragraph.appendChild(grandchild) }
            _ = node.insertBefore(paragraph, child)
            child.remove()
            changed = true
        }
        return (block, text)
    }

    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Elements whose content is phrasing only: a box in one stays a box.
    static let phrasingOnly: Set<String> = headings.union(["p", "pre", "summary", "caption", "dt", "legend"])

    /// Serves each heading whose text is one link (`<h3><a href=…>Rez Infinite ($30)</a></h3>`)
    /// inside that link instead (`<a href=…><h3>…</h3></a>`), which a browser shows the same: the
    /// readability family drops a heading whose text is mostly a link as navigation, and these
    /// are the article's own (yahoo-1's eight game titles). True when any was.
    @discardableResult
    static func linksAroundHeadings(in root: Node) -> Bool {
        var changed = false
        for heading in root.descendantElements(named: Array(headings)) {
            let significant = heading.childNodes.filter { !($0.isText && $0.data.allSatisfy(\.isWhitespace)) && ($0.isText || $0.isElement) }
            guard significant.count == 1, let link = significant.first, link.localName == "a", link.hasAttribute("href"),
                  let parent = heading.parent, parent.localName != "a", !link.textContent.allSatisfy(\.isWhitespace) else { continue }
            let outer = heading.document.createElement("a")
            for attribute in link.attributes { outer.setAttribute(attribute.name, attribute.value) }
            _ = parent.insertBefore(outer, heading)
            _ = outer.appendChild(heading)
            while let child = link.firstChild { _ = heading.insertBefore(child, link) }
            link.remove()
            changed = true
        }
        return changed
    }
}
