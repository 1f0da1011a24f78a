import HTML

/// The captions the text leaves out (a legend under a picture or a video the page no longer
/// shows, "… (Reuters)") are marked as captions in the article's HTML too: each one not already
/// in a `<figure>` or `<figcaption>`, and
/// holding no picture of its own, is wrapped in `<figure><figcaption>`; a paragraph that holds
/// only pictures beside its legend becomes the pictures' figure, the legend its caption. The HTML then says
/// what the text decided, so a reader (the reader page serves figure captions beside the
/// article, as `media-caption extra`) and any extractor run on it read the article as Piper's
/// text has it. The text is unchanged.
enum CaptionFigures {
    static func mark(_ captions: Set<Node>, in root: Node) {
        for found in captions.sorted(by: { $0.index < $1.index })
        where found.isElement && isUnmarked(found, below: root) && !holdsMedia(found) {
            // The box the caption fills alone (its paragraph): a figure cannot stand inside a
            // paragraph, and one that holds other text as well is left as it is.
            var caption = found
            while let parent = caption.parent, parent != root, phrasing.contains(parent.localName), isAlone(caption, in: parent) {
                caption = parent
            }
            guard let parent = caption.parent else { continue }
            if phrasing.contains(parent.localName) {
                // A paragraph of a picture and its legend (`<p><img><br><i>…</i></p>`) is that
                // picture's figure.
                if parent.localName == "p", parent != root, let box = parent.parent, holdsOnlyPictures(parent, besides: caption) {
                    let figure = root.document.createElement("figure")
                    _ = box.insertBefore(figure, parent)
                    while let child = parent.firstChild {
                        if child == caption || child.localName == "br" || (child.isText && child.textContent.allSatisfy(\.isWhitespace)) {
                            child.remove()
                        } else {
                            _ = figure.appendChild(child)
                        }
                    }
                    parent.remove()
                    wrap(caption, in: figure)
                }
                continue
            }
            let figure = root.document.createElement("figure")
            _ = parent.insertBefore(figure, caption)
            wrap(caption, in: figure)
        }
    }

    /// Appends `<figcaption>` holding `caption` to `figure`.
    private static func wrap(_ caption: Node, in figure: Node) {
        let figcaption = figure.document.createElement("figcaption")
        _ = figure.appendChild(figcaption)
        _ = figcaption.appendChild(caption)
    }

    /// Whether `paragraph` holds nothing but pictures (an `img`, a `picture`, a link around
    /// one, a box of only media), line breaks, empty elements and white space, besides
    /// `caption`, and at least one picture.
    static func holdsOnlyPictures(_ paragraph: Node, besides caption: Node) -> Bool {
        var pictures = 0
        for child in paragraph.childNodes where child != caption {
            if child.isText {
                guard child.textContent.allSatisfy(\.isWhitespace) else { return false }
            } else if child.isElement {
                // An empty element (an anchor's target `<a name=…></a>`) shows nothing.
                if Classifier.isPicture(child) || holdsMedia(child) && child.textContent.allSatisfy(\.isWhitespace) {
                    pictures += 1
                } else if child.localName != "br" && !child.textContent.allSatisfy(\.isWhitespace) {
                    return false
                }
            }
        }
        return pictures > 0
    }

    /// A caption's box that holds its picture too (WordPress's `wp-caption`) is left as it is: a
    /// picture belongs in the figure, not in its caption.
    static func holdsMedia(_ node: Node) -> Bool {
        var stack = node.children
        while let n = stack.popLast() {
            if media.contains(n.localName) { return true }
            stack += n.children
        }
        return false
    }

    static let media: Set<String> = ["img", "picture", "video", "audio", "svg", "iframe", "object", "embed", "canvas", "math"]

    /// Elements that may hold only phrasing content, where a figure cannot go.
    static let phrasing: Set<String> = ["p", "span", "a", "em", "strong", "i", "b", "small", "h1", "h2", "h3", "h4", "h5", "h6",
                                        "label", "q", "cite", "sub", "sup", "u", "s", "mark", "font", "abbr", "time"]

    /// Whether `node` is `parent`'s only element and the rest is whitespace.
    static func isAlone(_ node: Node, in parent: Node) -> Bool {
        parent.childNodes.allSatisfy { $0 == node || ($0.isText && $0.textContent.allSatisfy(\.isWhitespace)) || (!$0.isText && !$0.isElement) }
    }

    /// Inside `root` and in no figure or figcaption yet (nor one itself).
    static func isUnmarked(_ node: Node, below root: Node) -> Bool {
        var current: Node? = node
        while let n = current {
            if n.localName == "figure" || n.localName == "figcaption" { return false }
            if n == root { return true }
            current = n.parent
        }
        return false
    }
}
