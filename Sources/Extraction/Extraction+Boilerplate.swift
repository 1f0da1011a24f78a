// Classifies the elements of the chosen container and removes page furniture: navigation,
// sharing and sign-up boxes, related-link lists, bylines and datelines, author boxes, cookie
// text. Signals: semantic elements and ARIA roles, class/id vocabularies, link density, and
// the element's share of the container's text (a node holding much of it is never dropped).
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

    static let furniture = NameSet(["nav", "aside", "footer", "form", "header", "menu", "dialog", "button", "input", "select", "textarea", "label", "search"])
    static let furnitureRoles: Set<String> = ["navigation", "complementary", "contentinfo", "banner", "search", "menu", "menubar", "dialog", "alert", "toolbar"]
    static let listish = NameSet(["ul", "ol", "div", "section", "p", "span", "table", "dl"])

    init(root: Node) {
        total = max(1, Readability.innerTextLength(root))
    }

    func role(of node: Node) -> NodeRole {
        let length = Readability.innerTextLength(node)
        let share = Double(length) / Double(total)
        if share > Classifier.protectedShare { return .content }
        if node.hasTag("figcaption") || Vocabulary.matches(node, Vocabulary.caption) { return .caption }
        if Classifier.furniture.contains(node) { return .boilerplate }
        if let role = node.getAttribute("role")?.lowercased(), Classifier.furnitureRoles.contains(role) { return .boilerplate }
        if node.getAttribute("aria-hidden") == "true" || node.hasAttribute("hidden") { return .boilerplate }
        if Vocabulary.matches(node, Vocabulary.boilerplate, exact: Vocabulary.boilerplateExact),
           !Vocabulary.namesContent(node) {
            return .boilerplate
        }
        if Classifier.listish.contains(node), share < 0.2, linkDensity(node, length: length) > 0.5 {
            return .boilerplate
        }
        return .content
    }

    /// Share of the text inside links.
    func linkDensity(_ node: Node, length: Int) -> Double {
        guard length > 0 else { return 0 }
        var linked = 0
        for a in node.descendantElements(named: ["a"]) { linked += Readability.innerTextLength(a) }
        return Double(linked) / Double(length)
    }

    /// Removes boilerplate under `root` and returns the captions left in place (for the text
    /// to skip).
    static func clean(_ root: Node) -> Set<Node> {
        let classifier = Classifier(root: root)
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
