import HTML

/// Two more ways the reader page serves its blocks as read-later extractors expect them.
extension ReaderColumn {
    /// The classes a caption's text is served under: a figure's caption (and the credit in it)
    /// is the picture's, not the article's text (`piper extract`'s text leaves captions out).
    /// `extra` is in the vocabulary of the Readability family (Arc90's, Readability.js's and
    /// readability-lxml's unlikely candidates) for what stands beside an article; without it,
    /// readability-lxml reads the caption's division as a paragraph of the article.
    static let captionClass = "media-caption extra"

    /// A list item holding one paragraph and nothing else is served as the item's text. The
    /// paragraph looks the same, and readability-lxml, which credits a paragraph's score to its
    /// parent and grandparent, no longer makes each list a candidate of its own that scores
    /// below zero (a list's start) and drops whole, taking its items' text with it.
    @discardableResult
    static func unwrapItemParagraphs(in node: Node) -> Bool {
        var changed = false
        for item in node.descendantElements(named: ["li"]) {
            let elements = item.childNodes.filter(\.isElement)
            guard elements.count == 1, let paragraph = elements.first, paragraph.localName == "p",
                  item.childNodes.allSatisfy({ $0.isElement || !$0.isText || $0.data.allSatisfy(\.isWhitespace) })
            else { continue }
            for child in paragraph.childNodes { _ = item.insertBefore(child, paragraph) }
            paragraph.remove()
            changed = true
        }
        return changed
    }

    /// Each `figcaption`'s content wrapped in `<div class="media-caption extra">`: the caption reads
    /// the same, and read-later extractors leave it out of the article's text as `piper
    /// extract` does.
    @discardableResult
    static func markCaptions(in node: Node) -> Bool {
        var changed = false
        for caption in node.descendantElements(named: ["figcaption"]) where caption.firstChild != nil {
            let box = caption.document.createElement("div")
            box.setAttribute("class", captionClass)
            for child in caption.childNodes { _ = box.appendChild(child) }
            _ = caption.appendChild(box)
            changed = true
        }
        return changed
    }

    /// The sanitizer's stand-ins (`HTMLSanitizer+Foreign`): "[figure omitted]" for an SVG, and
    /// the link "▶ Video: …" or "Embedded content: …" for an embed. They are the page's, not the
    /// article's text, so they are served under the captions' classes too (the link inside a
    /// span of them), which read-later extractors leave out.
    @discardableResult
    static func markStandIns(in node: Node) -> Bool {
        var changed = false
        for span in node.descendantElements(named: ["span"])
        where span.attributes.isEmpty && span.textContent == "[figure omitted]" {
            span.setAttribute("class", captionClass)
            changed = true
        }
        for link in node.descendantElements(named: ["a"]) {
            let label = link.textContent
            guard label.hasPrefix("▶ Video: ") || label.hasPrefix("Embedded content: "), let parent = link.parent else { continue }
            let box = link.document.createElement("span")
            box.setAttribute("class", captionClass)
            _ = parent.insertBefore(box, link)
            _ = box.appendChild(link)
            changed = true
        }
        return changed
    }
}
