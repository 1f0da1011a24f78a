// The block scorer's structural features: where each block of an article's text sits in the
// markup. The article's one walk notes each text node's block (`BlockText.Builder.located`);
// from those nodes a block's share of linked text, its depth under the chosen container, the
// element it is written in, the class and id words of its ancestors (generalizing signals such
// as "comment", "share", "related", "footer"; never a site's name) and whether its element is
// one of a run of same-shaped siblings (a repeat: cards, list items, posts) are read.
import Foundation
import HTML

extension BlockScorer {
    /// Class and id vocabularies counted as signals, each a feature: whether an ancestor of the
    /// block below the chosen container (or the block's own element) carries one of its words.
    static let signals: [(name: String, words: Vocabulary.Words)] = [
        ("comment", Vocabulary.Words(["comment", "respond", "reply", "disqus", "discuss"])),
        ("share", Vocabulary.Words(["share", "sharing", "social", "follow"])),
        ("related", Vocabulary.Words(["related", "recommend", "trending", "popular", "readmore", "more", "teaser", "outbrain", "taboola"])),
        ("navigation", Vocabulary.navigationWords),
        ("metadata", Vocabulary.Words(["byline", "dateline", "timestamp", "author", "bio", "meta", "published", "updated"], exact: ["date", "time", "tag", "tags"])),
        ("caption", Vocabulary.captionWords),
        ("promotion", Vocabulary.Words(["advert", "sponsor", "promo", "newsletter", "subscri", "signup", "banner", "cta"], exact: ["ad", "ads"])),
        ("other furniture", Vocabulary.boilerplateWords),
        ("content", Vocabulary.Words(["content", "article", "body", "entry", "post", "story", "text", "description", "main"])),
    ]

    /// The element kinds a block is written in, each a feature (the nearest one above its
    /// first text node below the chosen container; none of them: a div or the like).
    static let elementKinds: [(name: String, tags: NameSet)] = [
        ("heading", NameSet(["h1", "h2", "h3", "h4", "h5", "h6"])),
        ("paragraph", NameSet(["p"])),
        ("list item", NameSet(["li", "dt", "dd"])),
        ("table cell", NameSet(["td", "th"])),
        ("quote or code", NameSet(["blockquote", "pre", "code"])),
        ("caption element", NameSet(["figcaption", "caption", "figure"])),
        ("form", NameSet(["form", "label", "fieldset", "legend", "option"])),
    ]
    static let blockElements = NameSet(BlockText.paragraphNames + BlockText.lineNames + ["td", "th"])
    static let anchor = NameSet(["a"])

    /// The structure of one block.
    struct Shape {
        var linkDensity = 0.0
        var depth = 0
        var kind = -1
        var signals = [Bool](repeating: false, count: BlockScorer.signals.count)
        var repeats = 0
        var inList = false

        /// The structural features, in `shapeNames`' order (`neighbours` adds the next ones).
        var features: [Double] {
            var out: [Double] = [linkDensity, Double(depth), repeats > 2 ? 1 : 0, log1p(Double(repeats)), inList ? 1 : 0]
            for k in BlockScorer.elementKinds.indices { out.append(kind == k ? 1 : 0) }
            for s in signals { out.append(s ? 1 : 0) }
            return out
        }
    }

    static let shapeNames = ["link density", "depth", "repeated shape", "log same-shaped siblings", "in a list"]
        + elementKinds.map(\.name) + signals.map { "names \($0.name)" }

    /// Each of `count` blocks' shape, from the text nodes `located` in them under `root`.
    static func shapes(count: Int, located: [(node: Int32, block: Int)], in root: Node) -> [Shape] {
        let document = root.document
        let top = root.index
        var shapes = [Shape](repeating: Shape(), count: count)
        var bytes = [Int](repeating: 0, count: count)
        var linked = [Int](repeating: 0, count: count)
        var seen = [Bool](repeating: false, count: count)
        for (node, block) in located where block < count {
            let length = document.withTextUTF8(at: node) { $0.count }
            bytes[block] += length
            var inLink = false
            var a = document.parent(at: node)
            while a >= 0 && a != top {
                if anchor.contains(id: document.nameID(at: a)) { inLink = true; break }
                a = document.parent(at: a)
            }
            if inLink { linked[block] += length }
            if !seen[block] {
                seen[block] = true
                shapes[block] = shape(of: node, under: top, in: document)
            }
        }
        for i in 0..<count where bytes[i] > 0 { shapes[i].linkDensity = Double(linked[i]) / Double(bytes[i]) }
        return shapes
    }

    /// The shape of the block whose first text node is `node`.
    private static func shape(of node: Int32, under top: Int32, in document: Document) -> Shape {
        var shape = Shape()
        var element: Int32 = -1
        var a = document.parent(at: node)
        while a >= 0 && a != top {
            shape.depth += 1
            let name = document.nameID(at: a)
            if element < 0 && blockElements.contains(id: name) { element = a }
            if shape.kind < 0, let k = elementKinds.firstIndex(where: { $0.tags.contains(id: name) }) { shape.kind = k }
            if name == li { shape.inList = true }
            if document.hasAttributes(at: a) {
                let node = document.node(at: a)
                let names = Vocabulary.Names(className: node.className, id: node.id)
                for (s, signal) in signals.enumerated() where !shape.signals[s] && names.matches(signal.words) {
                    shape.signals[s] = true
                }
            }
            a = document.parent(at: a)
        }
        if element >= 0 { shape.repeats = sameShaped(element, in: document) }
        return shape
    }

    /// How many of `element`'s siblings (itself included) have its name and class.
    private static func sameShaped(_ element: Int32, in document: Document) -> Int {
        let parent = document.parent(at: element)
        guard parent >= 0 else { return 1 }
        let name = document.nameID(at: element)
        let className = document.node(at: element).className
        var count = 0
        var c = document.firstChild(at: parent)
        while c >= 0 {
            if document.nameID(at: c) == name && document.node(at: c).className == className { count += 1 }
            c = document.nextSibling(at: c)
        }
        return count
    }

    static let li = Document.knownNameID("li")!
}
