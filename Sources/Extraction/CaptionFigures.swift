import HTML

/// The captions the text leaves out (a legend under a picture or a video the page no longer
/// shows, "… (Reuters)") are marked as captions in the article's HTML too: each one not already
/// in a `<figure>` or `<figcaption>`, and
/// holding no picture of its own, is wrapped in `<figure><figcaption>`. The HTML then says
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
            guard let parent = caption.parent, !phrasing.contains(parent.localName) else { continue }
            let figure = root.document.createElement("figure")
            let figcaption = root.document.createElement("figcaption")
            _ = parent.insertBefore(figure, caption)
            _ = figure.appendChild(figcaption)
            _ = figcaption.appendChild(caption)
        }
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
