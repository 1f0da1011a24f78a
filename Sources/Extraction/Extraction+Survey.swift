// The page as it was parsed, before Readability changes it (it removes <noscript>, unlikely
// candidates and hidden nodes, and moves its candidate's nodes): the text mass and link text of
// every element from one walk, and the containers a second strategy can choose from.
//   named     containers that call themselves the body (itemprop=articleBody, entry-content, …)
//   semantic  <main>, role=main, <article>
//   repeated  a parent whose children repeat one structure that each hold text (forum posts,
//             comments, listing items): the parent keeps all of them
import HTML

struct Survey {
    /// Text length (non-space UTF-8 bytes) and link text length by node index.
    private(set) var text: [Int32]
    private(set) var links: [Int32]
    /// Elements in document order (pre-order), skipping scripts, styles and templates.
    private(set) var elements: [Node] = []
    private(set) var named: [Node] = []
    private(set) var semantic: [Node] = []
    /// The whole page's text length.
    private(set) var total = 1

    static let skipped = NameSet(["script", "style", "template", "svg", "head", "title", "math"])
    static let repeatable = NameSet(["div", "li", "article", "section", "tr", "dd", "details", "blockquote"])
    static let sectioning = NameSet(["main", "article"])

    init(_ document: Document) {
        text = Array(repeating: 0, count: document.indexLimit)
        links = text
        guard let body = document.body else { return }
        // Pre-order walk, then lengths summed from the leaves up.
        var order: [Node] = []
        var stack: [Node] = [body]
        while let node = stack.popLast() {
            order.append(node)
            if node.isText {
                var n: Int32 = 0
                for b in node.data.utf8 where b > 0x20 { n += 1 }
                text[Int(node.index)] = n
                continue
            }
            guard node.isElement, node == body || !Survey.skipped.contains(node) else { continue }
            if node != body { elements.append(node) }
            var child = node.lastChild
            while let c = child {
                if c.isText || c.isElement { stack.append(c) }
                child = c.previousSibling
            }
        }
        for node in order.reversed() {
            let i = Int(node.index)
            if node.hasTag("a") { links[i] = text[i] }
            if node != body, let parent = node.parent {
                text[Int(parent.index)] += text[i]
                links[Int(parent.index)] += links[i]
            }
        }
        total = max(1, Int(text[Int(body.index)]))
        for e in elements {
            if Survey.sectioning.contains(e) || e.getAttribute("role")?.lowercased() == "main" {
                semantic.append(e)
            } else if let prop = e.getAttribute("itemprop"), prop.lowercased() == "articlebody" {
                named.append(e)
            } else if Vocabulary.namesContent(e) {
                named.append(e)
            }
        }
    }

    func textLength(_ node: Node) -> Int { Int(text[Int(node.index)]) }

    func linkDensity(_ node: Node) -> Double {
        let t = text[Int(node.index)]
        return t > 0 ? Double(links[Int(node.index)]) / Double(t) : 0
    }

    /// Text outside links: what a container is worth.
    func mass(_ node: Node) -> Double { Double(textLength(node)) * (1 - linkDensity(node)) }

    /// The best content-named container: the most text outside links, then the innermost
    /// named container that still holds nine tenths of it.
    func bestNamed() -> Node? {
        var best: Node?
        for n in named where textLength(n) >= 200 && linkDensity(n) < 0.5 {
            if best == nil || mass(n) > mass(best!) { best = n }
        }
        guard var chosen = best else { return nil }
        for n in named where n != chosen && chosen.contains(n) && mass(n) >= 0.9 * mass(chosen) && linkDensity(n) < 0.5 {
            if textLength(n) < textLength(chosen) { chosen = n }
        }
        return chosen
    }

    /// The <main>/<article>/role=main element with the most text outside links, preferring an
    /// inner one that holds nine tenths of it.
    func bestSemantic() -> Node? {
        var best: Node?
        for n in semantic where textLength(n) >= 200 {
            if best == nil || mass(n) > mass(best!) { best = n }
        }
        guard var chosen = best else { return nil }
        for n in semantic where n != chosen && chosen.contains(n) && mass(n) >= 0.9 * mass(chosen) {
            if textLength(n) < textLength(chosen) { chosen = n }
        }
        return chosen
    }
}
