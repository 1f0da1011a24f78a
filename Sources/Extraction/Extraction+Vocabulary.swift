// Class-name and id vocabularies sites use for page furniture (in English even on pages in
// other languages). Names are split into lowercase word tokens ("post-share_buttons" →
// post, share, buttons), and a token matches a vocabulary word when it starts with it.
import HTML

enum Vocabulary {
    /// Furniture around the article: sharing, promotion, navigation, sign-up and site chrome.
    static let boilerplate = [
        "share", "sharing", "social", "related", "newsletter", "subscri", "signup", "promo",
        "advert", "sponsor", "breadcrumb", "cookie", "consent", "gdpr", "sidebar",
        "navbar", "menu", "pagination", "pager", "toolbar", "popup", "modal", "banner", "outbrain",
        "taboola", "recommend", "trending", "popular", "print", "disqus", "follow", "footer",
        "masthead", "skip", "visually", "screenreader", "tags", "tagcloud",
        "byline", "dateline", "timestamp", "author", "bio", "meta", "readmore", "more",
        "upsell", "paywall", "donate", "comment", "respond", "reply",
    ]
    /// Exact tokens that are too short or too common to match as prefixes.
    static let boilerplateExact: Set<String> = ["ad", "ads", "nav", "cta", "tag", "date", "time", "rel", "jump", "toc", "sr"]
    /// In a thread, post headers (author, date, "reply") are part of each post.
    static let postHeader: Set<String> = ["byline", "dateline", "timestamp", "author", "bio", "meta", "comment", "respond", "reply", "date", "time"]
    static let threadBoilerplate = boilerplate.filter { !postHeader.contains($0) }
    static let threadBoilerplateExact = boilerplateExact.subtracting(postHeader)
    /// Captions, credits and gallery labels: kept in the reader HTML, left out of the text.
    static let caption = ["caption", "credit", "figcaption", "photographer", "copyright", "attribution", "gallery"]
    /// Containers that name themselves the article body.
    static let content = ["articlebody", "article-body", "article-content", "articlecontent", "entry-content",
                          "post-content", "postcontent", "post-body", "postbody", "story-body", "storybody",
                          "entry-body", "content-body", "article-text", "articletext", "story-content",
                          "post-entry", "single-content", "page-content", "main-content", "td-post-content"]

    /// The class and id of `node` as word tokens.
    /// Utility-class names (Tailwind's `print:hidden`, `w-[64px]`, `decoration-primary/6`)
    /// say how a box looks, not what it is, and are skipped.
    static func tokens(_ node: Node) -> [Substring] {
        var out: [Substring] = []
        for name in (node.className + " " + node.id).lowercased().split(separator: " ") {
            if name.contains(where: { $0 == ":" || $0 == "[" || $0 == "/" || $0 == "@" || $0 == "!" }) { continue }
            out.append(contentsOf: name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }))
        }
        return out
    }

    /// Whether any token of `node`'s class or id starts with a word of `words` (or is in `exact`).
    static func matches(_ node: Node, _ words: [String], exact: Set<String> = []) -> Bool {
        for token in tokens(node) {
            if exact.contains(String(token)) { return true }
            for word in words where token.hasPrefix(word) { return true }
        }
        return false
    }

    /// Whether `node`'s whole class list or id holds one of the content names.
    static func namesContent(_ node: Node) -> Bool {
        let names = (node.className + " " + node.id).lowercased()
        if names.isEmpty { return false }
        for name in content where names.contains(name) { return true }
        return false
    }
}
