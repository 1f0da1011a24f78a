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
    struct Shape: Hashable {
        let name: Int32
        let firstClass: [UInt8]
    }

    /// The shape of element `index` (its class read in place, no string made for an ASCII one).
    static func shape(at index: Int32, in document: Document) -> Shape {
        let name = document.nameID(at: index)
        return document.withAttributes(at: index) { list -> Shape in
            guard !list.isEmpty else { return Shape(name: name, firstClass: []) }
            var className = ReadAttributes(list).className
            // An ASCII class list without carriage returns (nearly all) is read as bytes: there
            // every separator and digit is one byte.
            let first: [UInt8]? = className.withUTF8 { bytes in
                var out: [UInt8] = []
                var started = false
                for b in bytes {
                    if b >= 0x80 || b == 0x0D { return nil }
                    if b == 0x20 || b == 0x09 || b == 0x0A {
                        if started { break }
                        continue
                    }
                    started = true
                    if b < 0x30 || b > 0x39 { out.append(b) }
                }
                return out
            }
            if let first { return Shape(name: name, firstClass: first) }
            let token = className.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first ?? ""
            return Shape(name: name, firstClass: Array(String(token.filter { !$0.isNumber }).utf8))
        }
    }

    /// Footers, navigation, asides and headers repeat links and blurbs, not posts; so do boxes
    /// named as navigation, sidebars or footers just above the repeat (a site menu in a
    /// `<ul id="nav">`, a blog's `<div id="sidebar">` of widgets). A form holding half the
    /// page's text is the page (ASP.NET wraps the whole body in one). The body's and root's
    /// own names ("has-sidebar", "menu-open") describe the page's layout and are not read.
    func isInFurniture(_ node: Node) -> Bool {
        let bodyText = body.map { textLength($0) } ?? 0
        var n: Node? = node
        var depth = 0
        while let e = n, e.isElement, e.localNameID != Survey.bodyElement, e.localNameID != Survey.htmlElement {
            if Survey.furniture.contains(e), e.localNameID != Survey.formElement || !SurveyRules.isPageForm(length: textLength(e), bodyText: bodyText, tuning) {
                return true
            }
            if !e.attributes.isEmpty {
                if let role = e.getAttribute("role")?.lowercased(), RoleRules.furnitureRoles.contains(role) { return true }
                if depth < tuning.navigationDepth, Vocabulary.matches(e, Vocabulary.navigationWords) { return true }
            }
            depth += 1
            n = e.parent
        }
        return false
    }

    static let bodyElement = Document.knownNameID("body")!
    static let htmlElement = Document.knownNameID("html")!
    static let formElement = Document.knownNameID("form")!
    static let furniture = NameSet(["footer", "nav", "aside", "header", "form", "menu", "dialog"])

    /// Layout boxes: columns, rows and wrappers repeat without being items; so do classless
    /// divs and sections.
    static func isLayout(_ shape: Shape) -> Bool {
        if shape.firstClass.isEmpty { return shape.name == divElement || shape.name == sectionElement }
        let name = String(decoding: shape.firstClass, as: UTF8.self).lowercased()
        return layoutWords.contains { name.hasPrefix($0) }
    }

    static let divElement = Document.knownNameID("div")!
    static let sectionElement = Document.knownNameID("section")!
    static let layoutWords = ["col", "row", "wrap", "container", "inner", "outer", "layout", "region", "zone", "area", "main", "page", "grid-col", "span", "clearfix", "group"]

    /// The best two repeats. `posts`: the most text outside links, at least two items of one
    /// shape that each hold 60 bytes of text, together most of their parent's text. `listing`:
    /// the most text, links included, in at least four short items (a grid of products, a
    /// list of stories), none holding half of it.
    func bestRepeats() -> (posts: Repeat?, listing: Repeat?) {
        var posts: Repeat?
        var listing: (repeat: Repeat, text: Int, largest: Int)?
        let doc = table.document
        // By index: most elements are passed over without a handle, and children without one
        // until they join a group.
        for index in table.order.dropFirst() where SurveyRules.mayHoldRepeat(length: table.length(at: index), tuning) {
            var elementChildren = 0
            var c = doc.firstChild(at: index)
            while c >= 0 && elementChildren < 2 {
                if doc.kind(at: c) == .element { elementChildren += 1 }
                c = doc.nextSibling(at: c)
            }
            guard elementChildren >= 2 else { continue }
            let parent = doc.node(at: index)
            // Shapes in the order they first appear, so ties go the same way on every run. A
            // parent's children come in a few shapes: a list searched from its end (the shape
            // just seen, most often) costs less than hashing, up to a dozen shapes; past
            // them they are hashed.
            var groups: [(shape: Shape, nodes: [Node])] = []
            var positions: [Shape: Int] = [:]
            var child = doc.firstChild(at: index)
            while child >= 0 {
                let c = child
                child = doc.nextSibling(at: c)
                if Survey.repeatable.contains(id: doc.nameID(at: c)), SurveyRules.mayRepeat(length: table.length(at: c), tuning) {
                    let shape = Survey.shape(at: c, in: doc)
                    let found = groups.count > 12 ? positions[shape] : groups.lastIndex(where: { $0.shape == shape })
                    if let k = found {
                        groups[k].nodes.append(doc.node(at: c))
                    } else {
                        groups.append((shape, [doc.node(at: c)]))
                        if groups.count == 13 {
                            for (k, g) in groups.enumerated() { positions[g.shape] = k }
                        } else if groups.count > 13 {
                            positions[shape] = groups.count - 1
                        }
                    }
                }
            }
            for (shape, all) in groups {
                guard all.count >= 2 else { continue }
                // Items named for their grid column ("col-span-1", "col-md-3") are a listing's
                // cards when they are links (a shop's products); as posts they are page columns.
                let layout = Survey.isLayout(shape)
                let parentText = Double(textLength(parent))
                if all.count >= tuning.listingItems, let r = measure(parent, all),
                   SurveyRules.isListing(items: all.count, layout: layout, named: !shape.firstClass.isEmpty, text: r.text, parentText: parentText,
                                         largest: r.largest, linkDensity: r.repeat.linkDensity, tuning),
                   listing == nil || r.text > listing!.text, !isInFurniture(parent) {
                    listing = r
                }
                if layout { continue }
                let items = all.filter { SurveyRules.isPostItem(length: textLength($0), tuning) }
                guard items.count >= 2, let r = measure(parent, items) else { continue }
                // Page columns (one holds the article, the others sidebars) are no repeat.
                guard SurveyRules.arePosts(items: items.count, named: !shape.firstClass.isEmpty, text: r.text, parentText: parentText,
                                           largest: r.largest, tuning) else { continue }
                if posts == nil || r.repeat.mass > posts!.mass, !isInFurniture(parent) {
                    posts = r.repeat
                }
            }
        }
        return (posts, listing.map { $0.repeat })
    }

    private func measure(_ parent: Node, _ items: [Node]) -> (repeat: Repeat, text: Int, largest: Int)? {
        var textSum = 0, linkSum = 0, largest = 0
        for item in items {
            textSum += textLength(item)
            linkSum += table.linkLength(item)
            largest = max(largest, textLength(item))
        }
        guard textSum > 0 else { return nil }
        let density = Double(linkSum) / Double(textSum)
        return (Repeat(parent: parent, items: items, mass: Double(textSum) * (1 - density), linkDensity: density), textSum, largest)
    }
}
