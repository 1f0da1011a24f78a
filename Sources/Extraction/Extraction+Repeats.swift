// Repeated structures: a parent whose children share one shape (tag and first class name,
// digits dropped: "post post-17 odd" and "post post-18 even" are one shape) and each hold
// text. Forum threads, comment lists, Q&A answers and listing grids look like this; Readability
// keeps one of the items, the parent keeps them all.
import HTML

/// A parent and the children that repeat one shape.
struct Repeat {
    let parent: Node
    let items: [Node]
    /// Text of the items outside links.
    let mass: Double
    /// Share of the items' text inside links.
    let linkDensity: Double
}

extension Survey {
    /// The shape of an element: its tag and its first class name without digits.
    static func shape(_ node: Node) -> String {
        let first = node.className.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first ?? ""
        return node.localName + "." + first.filter { !$0.isNumber }
    }

    /// The repeat with the most text outside links: at least two items of one shape that each
    /// hold `minimumItem` bytes of text, together most of their parent's text.
    func bestRepeat(minimumItem: Int = 60) -> Repeat? {
        var best: Repeat?
        for parent in elements {
            guard parent.childElementCount >= 2, textLength(parent) >= 300 else { continue }
            var groups: [String: [Node]] = [:]
            var child = parent.firstElementChild
            while let c = child {
                if Survey.repeatable.contains(c), textLength(c) >= minimumItem {
                    groups[Survey.shape(c), default: []].append(c)
                }
                child = c.nextElementSibling
            }
            for (_, items) in groups where items.count >= 2 {
                var textSum = 0, linkSum = 0
                for item in items {
                    textSum += textLength(item)
                    linkSum += Int(links[Int(item.index)])
                }
                guard Double(textSum) >= 0.5 * Double(textLength(parent)) else { continue }
                let density = Double(linkSum) / Double(max(1, textSum))
                let mass = Double(textSum) * (1 - density)
                if best == nil || mass > best!.mass {
                    best = Repeat(parent: parent, items: items, mass: mass, linkDensity: density)
                }
            }
        }
        return best
    }
}
