import HTML

/// A post's HTML (a Mastodon status's `content`, a Reddit post's `selftext_html`) as runs:
/// paragraphs and list items apart by a blank line, `<br>` a line break, links kept (a mention
/// or hashtag is a link too). A quote's fallback (`quote-inline`: "RE: https://…", for
/// clients that show no quotes) is left out, as Mastodon's client guidance says.
enum PostHTML {
    static func runs(_ html: String) -> [Post.Run] {
        let (document, root) = Document.parseFragment(html, context: "div")
        _ = document
        var runs = RunBuilder()
        func walk(_ node: Node) {
            for child in node.childNodes {
                if child.isText {
                    // A line break between blocks in the HTML's source (Reddit's) is not text.
                    let text = child.textContent
                    if text.contains("\n"), text.allSatisfy(\.isWhitespace) { continue }
                    runs.words(text)
                    continue
                }
                guard child.isElement else { continue }
                if child.getAttribute("class")?.split(separator: " ").contains("quote-inline") == true { continue }
                if child.hasTag("br") {
                    runs.words("\n")
                } else if child.hasTag("p") || child.hasTag("li") || child.hasTag("blockquote") || child.hasTag("pre") {
                    if !runs.runs.isEmpty { runs.words("\n\n") }
                    walk(child)
                } else if child.hasTag("a"), let href = child.getAttribute("href") {
                    // Mastodon hides the middle of long links in `invisible` spans; the text is the URL.
                    runs.link(child.textContent, url: href)
                } else {
                    walk(child)
                }
            }
        }
        walk(root)
        if case .text(let first)? = runs.runs.first, first.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return Array(runs.runs.dropFirst())
        }
        return runs.runs
    }
}
