// The classifier's measures: what `RoleRules` decide on that costs more than a table read (the
// prose under a box, a promo's label, a date line's figures, a legend's picture, a style's
// display), and the walks that remove repeated boxes.
import Foundation
import HTML

extension Classifier {
    /// The paragraph around `node` holds no text but its (`RoleRules.isPictureLegend`).
    func isAloneInParagraph(_ node: Node, length: Int) -> Bool {
        guard let parent = node.parent, parent.localNameID == Classifier.paragraph else { return false }
        return table.length(parent) == length
    }

    /// The element before `node` (a `br` passed over) is a picture with no text.
    func followsPicture(_ node: Node) -> Bool {
        var before = node.previousElementSibling
        if let b = before, b.localNameID == Classifier.lineBreak { before = b.previousElementSibling }
        guard let b = before else { return false }
        return Classifier.isPicture(b) && table.length(b) == 0
    }
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

    static let phrasing = NameSet(["span", "a", "em", "strong", "b", "i", "small", "time", "font", "abbr", "cite", "mark", "u", "sup", "sub"])

    /// A paragraph of prose (a standfirst) somewhere under `node`.
    func holdsProse(_ node: Node) -> Bool {
        for p in node.descendantElements(named: ["p"]) where RoleRules.isStandfirst(length: table.length(p), linkDensity: table.linkDensity(p), tuning) {
            return true
        }
        return false
    }

    /// An inline element inside a paragraph that has much more text than it: a dateline or a
    /// name in a sentence ("<span class=dateline>KOBE –</span> A total of …") is the sentence's.
    func isInlineInProse(_ node: Node, length: Int) -> Bool {
        guard Classifier.phrasing.contains(node), let parent = node.parent, !Classifier.phrasing.contains(parent) else { return false }
        return RoleRules.isInlineInSentence(length: length, parentLength: table.length(parent), parentLinkDensity: table.linkDensity(parent), tuning)
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
    static let time = Document.knownNameID("time")!

    /// A short line that is mostly a date or time, or a <time> (`RoleRules.isDateLine`).
    func isDateLine(_ node: Node, length: Int) -> Bool {
        RoleRules.isDateLine(length: length, isTime: node.localNameID == Classifier.time, inCode: inCode(node), figures: Classifier.figures(node), tuning)
    }

    /// The figures in `node`'s text, and whether a date or clock separator stands between
    /// figures ("23.10", "3:59", "5/12", "5. Mai").
    static func figures(_ node: Node) -> (digits: Int, separated: Bool) {
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
        return (digits, separated)
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
            if RoleRules.isProseParagraph(length: n, linkDensity: table.linkDensity(p), tuning) { length += n }
        }
        return length
    }

    /// Mostly paragraphs and few links: text whatever the container's name says.
    func isMostlyProse(_ node: Node, length: Int) -> Bool {
        RoleRules.isMostlyProse(length: length, linkDensity: table.linkDensity(node), prose: proseLength(node), tuning)
    }

    /// "Label: <a>headline</a>" (`RoleRules.isInlinePromo`).
    /// `node` lies in an item of a list (`ul`, `ol`) of `listingItems` items or more holding
    /// `articleListLabels` of the container's text: the article is mostly that list.
    func isInArticleList(_ node: Node) -> Bool {
        var at: Node? = node
        while let n = at, n.localNameID != Classifier.listItem { at = n.parent }
        guard let list = at?.parent, Classifier.lists.contains(id: list.localNameID),
              Double(table.length(list)) >= tuning.articleListLabels * Double(total) else { return false }
        var items = 0
        var child = list.firstElementChild
        while let c = child {
            if c.localNameID == Classifier.listItem { items += 1 }
            child = c.nextElementSibling
        }
        return items >= tuning.listingItems
    }

    static let listItem = Document.knownNameID("li")!
    static let lists = NameSet(["ul", "ol"])

    func isInlinePromo(_ node: Node, length: Int) -> Bool {
        RoleRules.isInlinePromo(length: length, label: Classifier.textBeforeFirstLink(node), tuning)
    }

    /// The text of `node` before its first link, trimmed (nil: no link).
    static func textBeforeFirstLink(_ node: Node) -> String? {
        guard let link = node.descendantElements(named: ["a"]).first else { return nil }
        var lead = ""
        for n in node.descendants {
            if n == link { break }
            if n.isText { lead += n.data }
        }
        return lead.trimmingCharacters(in: .whitespacesAndNewlines)
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
        guard RoleRules.allHeadings.contains(id: node.localNameID) else { return nil }
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
            guard n >= tuning.repeatedBlock, !RoleRules.dataCells.contains(c), c.localNameID != Classifier.paragraph else { continue }
            // Lengths first: text is only compared between siblings of the same length.
            if seen.contains(where: { $0.length == n && $0.node.localNameID == c.localNameID && $0.node.textContent == c.textContent }) {
                c.remove()
            } else {
                seen.append((n, c))
            }
        }
    }
    static let paragraph = Document.knownNameID("p")!
}
