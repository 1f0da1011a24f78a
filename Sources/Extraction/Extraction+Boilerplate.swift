// Classifies the elements of the chosen container and removes page furniture: navigation,
// sharing and sign-up boxes, related-link lists, bylines and datelines, author boxes, cookie
// text. Signals: semantic elements and ARIA roles, class/id vocabularies, link density, and
// the element's share of the container's text (a node holding much of it is never dropped).
import Foundation
import HTML
import Readability

/// The attributes the classifier reads, from one pass over an element's list: what
/// `getAttribute` answers for each (the first unprefixed attribute of that name). It reads the
/// list in place (`Document.withAttributes(at:)`, `Array.withUnsafeBufferPointer`) and only
/// notes positions: a reading is a plain value, so making and passing it costs no reference
/// counts, and only the values asked for are copied out. It must not outlive the list's buffer.
struct ReadAttributes {
    private let list: UnsafeBufferPointer<Attribute>
    private var classAt: Int32 = -1, idAt: Int32 = -1, roleAt: Int32 = -1, ariaHiddenAt: Int32 = -1
    private var styleAt: Int32 = -1, itempropAt: Int32 = -1, controlsAt: Int32 = -1, ariaModalAt: Int32 = -1
    private(set) var hidden = false
    /// Whether `aria-labelledby` is there (the panel survey's).
    private(set) var labelled = false

    var className: String { value(classAt) ?? "" }
    var id: String { value(idAt) ?? "" }
    var role: String? { value(roleAt) }
    var ariaHidden: String? { value(ariaHiddenAt) }
    var style: String? { value(styleAt) }
    /// `itemprop`, as given.
    var itemprop: String? { value(itempropAt) }
    /// `aria-controls`, as given (the panel survey's).
    var controls: String? { value(controlsAt) }
    /// Whether the element has an `id`, a `role`, an `aria-controls` (no string copied).
    var hasID: Bool { idAt >= 0 }
    var hasRole: Bool { roleAt >= 0 }
    var hasControls: Bool { controlsAt >= 0 }
    /// `aria-modal`, as given (the survey's).
    var ariaModal: String? { value(ariaModalAt) }

    @inline(__always)
    private func value(_ at: Int32) -> String? { at >= 0 ? list[Int(at)].value : nil }

    init() { list = UnsafeBufferPointer(start: nil, count: 0) }

    init(_ attributes: UnsafeBufferPointer<Attribute>) {
        list = attributes
        for i in attributes.indices where attributes[i].prefix == nil {
            let at = Int32(i)
            switch attributes[i].name.utf8.count {
            case 2 where attributes[i].name == "id": if idAt < 0 { idAt = at }
            case 4 where attributes[i].name == "role": if roleAt < 0 { roleAt = at }
            case 5 where attributes[i].name == "class": if classAt < 0 { classAt = at }
            case 5 where attributes[i].name == "style": if styleAt < 0 { styleAt = at }
            case 6 where attributes[i].name == "hidden": hidden = true
            case 8 where attributes[i].name == "itemprop": if itempropAt < 0 { itempropAt = at }
            case 10 where attributes[i].name == "aria-modal": if ariaModalAt < 0 { ariaModalAt = at }
            case 11 where attributes[i].name == "aria-hidden": if ariaHiddenAt < 0 { ariaHiddenAt = at }
            case 13 where attributes[i].name == "aria-controls": if controlsAt < 0 { controlsAt = at }
            case 15 where attributes[i].name == "aria-labelledby": labelled = true
            default: break
            }
        }
    }
}

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
    static let furnitureRoles: Set<String> = ["navigation", "complementary", "contentinfo", "banner", "search", "menu", "menubar", "dialog", "alertdialog", "alert", "toolbar"]
    static let listish = NameSet(["ul", "ol", "div", "section", "p", "span", "table", "dl"])

    /// The article title, normalized, for dropping headings that repeat it.
    let title: String?
    static let headings = NameSet(["h1", "h2", "h3"])

    /// A thread or listing: post headers (author, date) are content, and the repeated items
    /// themselves are never dropped.
    let posts: Bool
    let protected: Set<Node>
    /// A product page (`PageSchema.isProduct`): boxes named for customer reviews are furniture.
    let product: Bool
    let table: TextTable
    /// Where the prose is; threads and listings have no single span.
    let span: MainSpan?

    /// `normalizedTitle`: the article title as `normalized` gives it (the choice normalizes it
    /// once for every container it cleans).
    /// `masses`: the table also counts the text `TextMass` counts (`TextTable.mass`).
    init(root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema(),
         spanNames: Bool = true, masses: Bool = false) {
        table = TextTable(root, masses: masses, prose: posts ? nil : .init(names: spanNames))
        product = schema.isProduct
        total = max(1, table.length(root))
        self.title = normalizedTitle.flatMap { $0.isEmpty ? nil : $0 }
        self.posts = posts
        self.protected = protected
        span = posts ? nil : MainSpan(root: root, table: table)
    }

    /// Lowercased, whitespace runs collapsed, trimmed. An ASCII string (most titles) is done
    /// on its bytes: there lowercasing is A-Z only, and white space is tab, line feed,
    /// vertical tab, form feed, carriage return and space (a walk over Characters costs more
    /// than the rest of a classifier's set-up).
    static func normalized(_ s: String) -> String {
        var s = s
        let ascii: String? = s.withUTF8 { bytes in
            if bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            for b in bytes {
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
            }
            return String(decoding: out, as: UTF8.self)
        }
        return ascii ?? s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Whether `normalized(text) == title`. ASCII text (most headings) is compared byte by
    /// byte as it is normalized: there lowercasing is A-Z only, and white space is tab, line
    /// feed, vertical tab, form feed, carriage return and space.
    static func isTitle(_ text: String, _ title: String) -> Bool {
        var text = text, title = title
        let ascii: Bool? = text.withUTF8 { t in
            if t.contains(where: { $0 >= 0x80 }) { return nil }
            return title.withUTF8 { expected in
                var k = 0
                var pendingSpace = false
                for b in t {
                    if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                        pendingSpace = k > 0
                        continue
                    }
                    if pendingSpace {
                        guard k < expected.count, expected[k] == 0x20 else { return false }
                        k += 1
                        pendingSpace = false
                    }
                    guard k < expected.count, expected[k] == (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) else { return false }
                    k += 1
                }
                return k == expected.count
            }
        }
        return ascii ?? isTitleByCharacters(text, title)
    }

    /// `isTitle` for text with non-ASCII bytes: its Characters lowercased one by one (Swift's
    /// lowercasing maps each scalar on its own, so the pieces join to the whole's) and
    /// compared as they come with the title's Characters (canonically, as `==` compares
    /// strings), a white-space run as one space, so a heading that is not the title is told
    /// after its first few Characters.
    static func isTitleByCharacters(_ text: String, _ title: String) -> Bool {
        var expected = title.makeIterator()
        var started = false
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                guard expected.next() == " " else { return false }
                pendingSpace = false
            }
            started = true
            for lowered in character.lowercased() {
                guard expected.next() == lowered else { return false }
            }
        }
        return expected.next() == nil
    }

    static let figcaption = Document.knownNameID("figcaption")!
    static let header = Document.knownNameID("header")!

    func role(of node: Node, region: MainSpan.Region = .inside) -> NodeRole {
        let length = table.length(node)
        let share = Double(length) / Double(total)
        let name = node.localNameID
        if !protected.isEmpty && protected.contains(node) { return .content }
        if share > Classifier.protectedShare && !isLinkListFurniture(node, name: name, length: length) { return .content }
        if name == Classifier.figcaption { return .caption }
        if !posts, Classifier.captionRuns.contains(id: name), isPictureLegend(node, length: length) { return .caption }
        // Most elements (paragraphs, links, emphasis) carry no attribute at all.
        let list = node.attributes
        if list.isEmpty { return role(of: node, name: name, length: length, share: share, region: region, attributes: ReadAttributes(), bare: true) }
        return list.withUnsafeBufferPointer {
            role(of: node, name: name, length: length, share: share, region: region, attributes: ReadAttributes($0), bare: false)
        }
    }

    /// `role(of:region:)` once the element's attributes are read.
    private func role(of node: Node, name: Int32, length: Int, share: Double, region: MainSpan.Region,
                      attributes: ReadAttributes, bare: Bool) -> NodeRole {
        // A box the page's microdata calls the item's description or body is content whatever
        // its class says ("item-caption").
        let declared = attributes.itemprop.map { Classifier.bodyProperties.contains($0.lowercased()) } ?? false
        let names = bare || declared ? Vocabulary.Names.none : Vocabulary.Names(className: attributes.className, id: attributes.id)
        // The caption and furniture vocabularies, read in one pass over the names.
        let (captionNamed, furnitureNamed) = names.isEmpty ? (false, false)
            : names.matches(Vocabulary.captionWords, posts ? Vocabulary.threadBoilerplateWords : Vocabulary.boilerplateWords)
        // In a thread or listing a box named "caption" is an item's name and blurb.
        if !posts, captionNamed { return .caption }
        if Classifier.furniture.contains(id: name) { return .boilerplate }
        // A page header (headline, byline, date) goes, unless it holds a standfirst: then its
        // parts are judged one by one, as leading matter.
        if !posts, name == Classifier.header, !node.descendantElements(named: ["h1", "time"]).isEmpty, !holdsProse(node) {
            return .boilerplate
        }
        if Classifier.headings.contains(id: name), let title, Classifier.isTitle(node.textContent, title) { return .boilerplate }
        if !bare {
            if let role = attributes.role?.lowercased(), Classifier.furnitureRoles.contains(role) { return .boilerplate }
            // A link hidden from screen readers only (a card's second link to the same page,
            // its teaser or picture) is on the screen.
            if attributes.ariaHidden == "true" && name != MainSpan.anchor || attributes.hidden || Classifier.isHiddenByStyle(attributes.style)
                || Vocabulary.namesHidden(className: attributes.className) { return .boilerplate }
            // Outside the main-text span a furniture name is believed even over prose (an
            // author's bio, a sign-up box with a paragraph of pitch).
            if furnitureNamed, !names.namesContent(), !names.hasToken(in: Classifier.entryNames),
               region != .inside || !Classifier.allHeadings.contains(id: name),
               !isInlineInProse(node, length: length),
               region != .inside && share < Classifier.outsideShare && !Classifier.sectioning.contains(id: name)
               || !isMostlyProse(node, length: length) {
                return .boilerplate
            }
            // On a product page the customers' reviews (ratings, review lists and forms) are
            // not the product's description; a section of the text named so (the praise a
            // landing page quotes between its features) is the page's own.
            if product, region != .inside || !Classifier.sectioning.contains(id: name), names.matches(Vocabulary.reviewWords), !names.namesContent() { return .boilerplate }
        }
        if !posts, Classifier.listish.contains(id: name), share < 0.2, linkDensity(node, length: length) > 0.5,
           node.countDescendantElements(named: ["a"]) >= 2 || isInlinePromo(node, length: length) {
            return .boilerplate
        }
        // "See also: <a>headline</a>" set as a quote or a subheading between paragraphs.
        if !posts, Classifier.promoHolders.contains(id: name), share < 0.2, linkDensity(node, length: length) > 0.5,
           isInlinePromo(node, length: length) {
            return .boilerplate
        }
        if region != .inside, !Classifier.dataCells.contains(id: name), isDateLine(node, length: length) { return .boilerplate }
        return .content
    }

    /// A picture's legend set as a paragraph's styled run, with no `figcaption`: the run holds
    /// all of the paragraph's text (a line or two) and comes right after the paragraph's
    /// picture (`<p><img><br><em>Figure 4: …</em></p>`, `<p><img><span>Photo: …</span></p>`).
    func isPictureLegend(_ node: Node, length: Int) -> Bool {
        guard length > 0, length <= Classifier.legendLength, let parent = node.parent, parent.localNameID == Classifier.paragraph,
              table.length(parent) == length else { return false }
        var before = node.previousElementSibling
        if let b = before, b.localNameID == Classifier.lineBreak { before = b.previousElementSibling }
        guard let b = before else { return false }
        return Classifier.isPicture(b) && table.length(b) == 0
    }
    static let legendLength = 300
    static let captionRuns = NameSet(["span", "em", "i", "small", "sub"])
    static let lineBreak = Document.knownNameID("br")!

    /// An `img` or `picture`, or a link around one; an SVG image is an icon (a rating's,
    /// a difficulty's), whose label is no legend.
    static func isPicture(_ node: Node) -> Bool {
        var node = node
        if node.localNameID == MainSpan.anchor {
            guard let only = node.firstElementChild, only.nextElementSibling == nil else { return false }
            node = only
        }
        if node.localName == "picture" { return true }
        guard node.localNameID == BlockText.img else { return false }
        return !(node.getAttribute("src") ?? "").lowercased().hasSuffix(".svg")
    }

    static let promoHolders = NameSet(["blockquote", "h2", "h3", "h4", "h5", "h6"])
    static let bodyProperties: Set<String> = ["description", "articlebody"]

    /// The microformats name of a post (`hentry`, which WordPress gives every post it lists
    /// along with its taxonomy classes, `tag-…`, `category-…`): a post, whatever else its
    /// names say.
    static let entryNames: [[UInt8]] = [Array("hentry".utf8)]

    /// Headings, list items and table cells: a short line of figures there is data.
    static let dataCells = NameSet(["h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "dd", "dt", "tr", "table", "ul", "ol", "dl"])
    static let sectioning = NameSet(["article", "main", "section"])
    static let allHeadings = NameSet(["h1", "h2", "h3", "h4", "h5", "h6"])
    static let phrasing = NameSet(["span", "a", "em", "strong", "b", "i", "small", "time", "font", "abbr", "cite", "mark", "u", "sup", "sub"])

    /// A paragraph of prose (a standfirst) somewhere under `node`.
    func holdsProse(_ node: Node) -> Bool {
        for p in node.descendantElements(named: ["p"]) where table.length(p) >= 80 && table.linkDensity(p) < 0.3 { return true }
        return false
    }

    /// An inline element inside a paragraph that has much more text than it: a dateline or a
    /// name in a sentence ("<span class=dateline>KOBE –</span> A total of …") is the sentence's.
    func isInlineInProse(_ node: Node, length: Int) -> Bool {
        guard Classifier.phrasing.contains(node), let parent = node.parent, !Classifier.phrasing.contains(parent) else { return false }
        return table.length(parent) >= 2 * length + 60 && table.linkDensity(parent) < 0.5
    }

    static let code = NameSet(["pre", "code", "samp", "kbd"])

    /// Inside preformatted text or code (program output is figures, not dates).
    func inCode(_ node: Node) -> Bool {
        var n: Node? = node
        while let e = n, e.isElement {
            if Classifier.code.contains(e) { return true }
            n = e.parent
        }
        return false
    }
    /// Outside the span, a named box smaller than this share is furniture even when it is prose.
    static let outsideShare = 0.15
    static let time = Document.knownNameID("time")!

    /// A short line that is mostly a date or time ("23.10.2018", "Aktualisiert am 5.5.2020,
    /// 14:03"), or a <time>.
    func isDateLine(_ node: Node, length: Int) -> Bool {
        guard length > 0, length <= 80, !inCode(node) else { return false }
        if node.localNameID == Classifier.time { return true }
        // Figures, and a date or clock separator between figures ("23.10", "3:59", "5/12", "5. Mai").
        var digits = 0, separated = false
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        node.forEachDescendantText { s in
            for b in s.utf8 {
                let digit = b >= 0x30 && b <= 0x39
                if b == 0x20 && previous == 0x2E && beforePrevious >= 0x30 && beforePrevious <= 0x39 { separated = true }
                if digit {
                    digits += 1
                    if beforePrevious >= 0x30 && beforePrevious <= 0x39 && (previous == 0x2E || previous == 0x3A || previous == 0x2F) { separated = true }
                }
                beforePrevious = previous
                previous = b
            }
        }
        return separated && digits >= 4 && Double(digits) >= 0.35 * Double(length)
    }

    /// `style="display:none"` or `visibility:hidden`.
    static func isHiddenByStyle(_ style: String?) -> Bool {
        guard var style else { return false }
        // An ASCII style (nearly all) is read as bytes: lowercased, spaces dropped.
        let ascii: Bool? = style.withUTF8 { bytes in
            guard bytes.count >= 12 else { return nil }
            return !bytes.contains { $0 >= 0x80 }
        }
        guard let ascii else { return false }
        if !ascii {
            let s = style.lowercased().filter { $0 != " " }
            return s.containsBytes("display:none") || s.containsBytes("visibility:hidden")
        }
        var s: [UInt8] = []
        style.withUTF8 { bytes in
            s.reserveCapacity(bytes.count)
            for b in bytes where b != 0x20 { s.append(Vocabulary.asciiLowercased(b)) }
        }
        return Vocabulary.contains(s, Classifier.displayNone) || Vocabulary.contains(s, Classifier.visibilityHidden)
    }

    static let displayNone = Array("display:none".utf8)
    static let visibilityHidden = Array("visibility:hidden".utf8)

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
    /// A furniture element or role (an `aside` of widgets, a `nav`) whose text outside links is
    /// no large share of the container: its lists of links hold the share, not prose, so the
    /// share does not protect it. (A short article's sidebar of headlines can outweigh it.)
    func isLinkListFurniture(_ node: Node, name: Int32, length: Int) -> Bool {
        let furniture = Classifier.furniture.contains(id: name)
            || node.getAttribute("role").map { Classifier.furnitureRoles.contains($0.lowercased()) } ?? false
        guard furniture else { return false }
        return Double(length) * (1 - linkDensity(node, length: length)) <= Classifier.protectedShare * Double(total)
    }

    func linkDensity(_ node: Node, length: Int) -> Double {
        table.linkDensity(node)
    }

    /// A heading whose section held only what was just removed after it: nothing but white
    /// space follows it in its parent, or the next element is a heading of its rank or higher
    /// ("Trending now" over a list of headline links, "Related coverage" over teasers).
    func headsNothing(_ heading: Node) -> Bool {
        guard let rank = Classifier.headingRank(heading) else { return false }
        var next = heading.nextSibling
        while let n = next {
            if n.isElement {
                guard let nextRank = Classifier.headingRank(n) else { return false }
                return nextRank <= rank
            }
            if Classifier.isWrittenText(n) { return false }
            next = n.nextSibling
        }
        return true
    }

    /// 1 to 6 for `h1` to `h6`; nil for anything else.
    static func headingRank(_ node: Node) -> Int? {
        guard allHeadings.contains(id: node.localNameID) else { return nil }
        let name = node.localName.utf8
        return name.count == 2 ? Int(name[name.index(after: name.startIndex)]) - 0x30 : nil
    }

    /// Whether a text child of `node` holds more than white space.
    static func ownsText(_ node: Node) -> Bool {
        var c = node.firstChild
        while let n = c, !isWrittenText(n) { c = n.nextSibling }
        return c != nil
    }

    /// A text node holding more than white space.
    static func isWrittenText(_ node: Node) -> Bool {
        node.isText && node.data.utf8.contains(where: { $0 != 0x20 && ($0 < 0x09 || $0 > 0x0D) })
    }

    /// Removes a child box whose text repeats an earlier sibling's of the same tag word for
    /// word: one copy of a block for each screen size, a carousel's cloned slides.
    func dropRepeatedChildren(of node: Node, seen: inout [(length: Int32, node: Node)]) {
        guard node.childElementCount >= 2 else { return }
        seen.removeAll(keepingCapacity: true)
        var child = node.firstElementChild
        while let c = child {
            child = c.nextElementSibling
            let n = Int32(table.length(c))
            guard n >= Classifier.repeatedBlock, !Classifier.dataCells.contains(c), c.localNameID != Classifier.paragraph else { continue }
            // Lengths first: text is only compared between siblings of the same length.
            if seen.contains(where: { $0.length == n && $0.node.localNameID == c.localNameID && $0.node.textContent == c.textContent }) {
                c.remove()
            } else {
                seen.append((n, c))
            }
        }
    }
    static let repeatedBlock = 60
    static let paragraph = Document.knownNameID("p")!

    /// Removes boilerplate under `root` and returns the captions left in place (for the text
    /// to skip).
    /// Also returns the text `root` keeps (`TextMass.length` of it cleaned), counted from the
    /// classifier's table as boxes go rather than walked again.
    static func clean(_ root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema())
        -> (captions: Set<Node>, mass: Int) {
        clean(root, normalizedTitle: normalizedTitle, posts: posts, protected: protected, schema: schema, unlessBelow: nil)!
    }

    /// `clean`, given up (nil, `root` half cleaned) once the text it can still keep falls
    /// under `bound.least`: `bound.length` (the container's `TextMass.length` before) less the
    /// text of the boxes removed so far. A box's table length never exceeds its text mass, and
    /// cleaning only removes, so the container cleaned to the end would keep less still. The
    /// choice cleans alternatives it then passes over; this stops those early.
    static func clean(_ root: Node, normalizedTitle: String?, posts: Bool = false, protected: Set<Node> = [], schema: PageSchema = PageSchema(),
                      unlessBelow bound: (length: Int, least: Double)?) -> (captions: Set<Node>, mass: Int)? {
        let classifier = Classifier(root: root, normalizedTitle: normalizedTitle, posts: posts, protected: protected, schema: schema,
                                    masses: true)
        var captions = Set<Node>()
        var left = bound?.length ?? 0
        // A removed box's subtree is as the table counted it (the walk never entered it); a
        // heading removed after its list was walked first, and is counted as it is now, as is
        // a box the table holds no count of.
        var mass = classifier.table.mass(root)
        var stack = root.children.reversed().map { ($0, MainSpan.Region.inside) }
        while let (node, parentRegion) = stack.popLast() {
            let region = classifier.span?.region(of: node, parent: parentRegion) ?? .inside
            switch classifier.role(of: node, region: region) {
            case .boilerplate:
                // A list of links goes with the heading that only introduced it.
                let heading = posts || classifier.table.linkDensity(node) <= 0.5 ? nil : node.previousElementSibling
                node.remove()
                // A box inside a skipped subtree (an SVG's title) is not in the table.
                let removed = classifier.table.mass(node)
                mass -= removed > 0 ? removed : TextMass.length(node)
                if let heading, classifier.headsNothing(heading) {
                    mass -= TextMass.length(heading)
                    heading.remove()
                }
                if let bound {
                    left -= classifier.table.length(node)
                    if Double(left) < bound.least { return nil }
                }
            case .caption:
                captions.insert(node)
            case .content:
                // The element children, the last pushed first: the first is taken next.
                var child = node.lastElementChild
                while let c = child {
                    stack.append((c, region))
                    child = c.previousElementSibling
                }
            }
        }
        assert(mass == TextMass.length(root), "the cleaned container's text is its table's less the boxes removed")
        return (captions, mass)
    }
}
