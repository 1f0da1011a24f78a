// An article's declared text, from its JSON-LD `articleBody`: when the text chosen holds under
// half of its words (the page renders the article from a script, and the markup holds only a
// teaser, a sign-in box or the site's furniture), the declared text is the article.
import HTML

enum ArticleBody {
    /// The declared body's paragraphs (markup removed, white space collapsed), or nil when
    /// it is short (under `tuning.articleBodyMinimum` bytes: a summary) or `text` holds
    /// `tuning.articleBodyHeld` of its words.
    static func missing(_ body: String?, from text: String, _ tuning: Tuning) -> [String]? {
        let minimum = tuning.articleBodyMinimum, heldShare = tuning.articleBodyHeld
        guard let body, body.utf8.count >= minimum else { return nil }
        // Lines split on the bytes (a split on Characters costs a grapheme walk of the body).
        let paragraphs = body.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
            .map { Standfirst.collapsed(ProductDescription.withoutTags(String(decoding: $0, as: UTF8.self))) }
            .filter { !$0.isEmpty }
        let plain = paragraphs.joined(separator: " ")
        guard plain.utf8.count >= minimum else { return nil }
        let (held, wanted) = ProductDescription.heldWords(of: plain, in: text)
        return Double(held) < heldShare * Double(wanted) ? paragraphs : nil
    }

    /// Replaces the container's content with `paragraphs`.
    static func replace(_ root: Node, with paragraphs: [String]) {
        while let child = root.firstChild { child.remove() }
        for paragraph in paragraphs {
            let p = root.document.createElement("p")
            _ = p.appendChild(root.document.createTextNode(paragraph))
            _ = root.appendChild(p)
        }
    }
}
