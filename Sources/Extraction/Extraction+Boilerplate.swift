// Classifies the elements of the chosen container and removes page furniture: navigation,
// sharing and sign-up boxes, related-link lists, bylines and datelines, author boxes, cookie
// text. Signals: semantic elements and ARIA roles, class/id vocabularies, link density, and
// the element's share of the container's text (a node holding much of it is never dropped).
import Foundation
import HTML
import Readability

/// What an element of the article is.
enum NodeRole {
    case content
    /// Navigation, promotion, sharing and other furniture: dropped from HTML and text.
    case boilerplate
    /// Figure captions and credits: kept in the reader HTML, left out of the plain text.
    case caption
}

struct Classifier {
    /// Text length of the whole container.
    let total: Int
    /// Elements holding more than this share of the text are content whatever they look like.
    static let protectedShare = 0.3

    static let furniture = NameSet(["nav", "aside", "footer", "form", "menu", "dialog", "button", "input", "select", "textarea", "label", "search"])
    static let furnitureRoles: Set<String> = ["navigation", "complementary", "contentinfo", "banner", "search", "menu", "menubar", "dialog", "alert", "toolbar"]
    static let listish = NameSet(["ul", "ol", "div", "section", "p", "span", "table", "dl"])

    /// The article title, normalized, for dropping headings that repeat it.
    let title: String?
    static let headings = NameSet(["h1", "h2", "h3"])

    /// A thread or listing: post headers (author, date) are content, and the repeated items
    /// themselves are never dropped.
    let posts: Bool
    let protected: Set<Node>
    let table: TextTable

    init(root: Node, title: String?, posts: Bool = false, protected: Set<Node> = []) {
        table = TextTable(root)
        total = max(1, table.length(root))
        self.title = title.map(Classifier.normalized).flatMap { $0.isEmpty ? nil : $0 }
        self.posts = posts
        self.protected = protected
    }

    /// Lowercased, whitespace runs collapsed, trimmed.
    static func normalized(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static let figcaption = Document.knownNameID("figcaption")!
    static let header = Document.knownNameID("header")!

    func role(of node: Node) -> NodeRole {
        let length = table.length(node)
        let share = Double(length) / Double(total)
        if share > Classifier.protectedShare || !protected.isEmpty && protected.contains(node) { return .content }
        let name = node.localNameID
        if name == Classifier.figcaption { return .caption }
        // Most elements (paragraphs, links, emphasis) carry no attribute at all.
        let bare = node.attributes.isEmpty
        let names = bare ? Vocabulary.Names.none : Vocabulary.Names(node)
        if !bare, names.matches(Vocabulary.captionWords) { return .caption }
        if Classifier.furniture.contains(id: name) { return .boilerplate }
        if !posts, name == Classifier.header, !node.descendantElements(named: ["h1", "time"]).isEmpty { return .boilerplate }
        if Classifier.headings.contains(id: name), let title, Classifier.normalized(node.textContent) == title { return .boilerplate }
        if !bare {
            if let role = node.getAttribute("role")?.lowercased(), Classifier.furnitureRoles.contains(role) { return .boilerplate }
            if node.getAttribute("aria-hidden") == "true" || node.hasAttribute("hidden") || Classifier.isHiddenByStyle(node)
                || Vocabulary.namesHidden(node) { return .boilerplate }
            if names.matches(posts ? Vocabulary.threadBoilerplateWords : Vocabulary.boilerplateWords),
               !names.namesContent(), !isMostlyProse(node, length: length) {
                return .boilerplate
            }
        }
        if !posts, Classifier.listish.contains(id: name), share < 0.2, linkDensity(node, length: length) > 0.5,
           node.countDescendantElements(named: ["a"]) >= 2 || isInlinePromo(node, length: length) {
            return .boilerplate
        }
        return .content
    }

    /// `style="display:none"` or `visibility:hidden`.
    static func isHiddenByStyle(_ node: Node) -> Bool {
        guard let style = node.getAttribute("style"), style.count >= 12 else { return false }
        let s = style.lowercased().filter { $0 != " " }
        return s.contains("display:none") || s.contains("visibility:hidden")
    }

    /// Text in paragraphs with few links: what prose a container holds, whatever its name says
    /// (site builders call every box a widget).
    func proseLength(_ node: Node) -> Int {
        var length = 0
        for p in node.descendantElements(named: ["p", "pre", "blockquote"]) {
            let n = table.length(p)
            if n >= 50, table.linkDensity(p) < 0.3 { length += n }
        }
        return length
    }

    /// Mostly paragraphs and few links: text whatever the container's name says.
    func isMostlyProse(_ node: Node, length: Int) -> Bool {
        length >= 85 && linkDensity(node, length: length) < 0.25 && Double(proseLength(node)) >= 0.6 * Double(length)
    }

    /// "Label: <a>headline</a>": a short block whose text before its one link ends in a colon.
    func isInlinePromo(_ node: Node, length: Int) -> Bool {
        guard length < 210, let link = node.descendantElements(named: ["a"]).first else { return false }
        var lead = ""
        for n in node.descendants {
            if n == link { break }
            if n.isText { lead += n.data }
        }
        let trimmed = lead.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasSuffix(":") && trimmed.count < 40
    }

    /// Share of the text inside links.
    func linkDensity(_ node: Node, length: Int) -> Double {
        table.linkDensity(node)
    }

    /// Removes boilerplate under `root` and returns the captions left in place (for the text
    /// to skip).
    static func clean(_ root: Node, title: String?, posts: Bool = false, protected: Set<Node> = []) -> Set<Node> {
        let classifier = Classifier(root: root, title: title, posts: posts, protected: protected)
        var captions = Set<Node>()
        var stack = root.children.reversed() as [Node]
        while let node = stack.popLast() {
            switch classifier.role(of: node) {
            case .boilerplate:
                node.remove()
            case .caption:
                captions.insert(node)
            case .content:
                stack.append(contentsOf: node.children.reversed())
            }
        }
        return captions
    }
}
