// The attributes the node-prepping walk reads of every element, gathered in one pass over its
// attribute list instead of one lookup per name (most elements have none at all).
import HTML

struct PrepAttributes {
    var style: String?
    var hidden = false
    var ariaHidden: String?
    var ariaModal: String?
    var role: String?
    /// The class attribute holds "fallback-image" (read only when aria-hidden is "true").
    var fallbackImage = false
    /// rel is "author", or itemprop holds "author": the byline tests besides the match string.
    var authorAttribute = false

    /// What `getAttribute` would answer for each name: the first unprefixed attribute so named.
    /// `match` becomes `className + " " + id` in ASCII lowercase (the match string of the
    /// unlikely, byline and maybe-candidate tests), written into the caller's buffer.
    init(_ document: Document, _ index: Int32, match: inout [UInt8]) {
        // Fields read in place: a copy of each attribute would cost reference counts.
        document.withAttributes(at: index) { list in
            var classAt = -1, idAt = -1, relAt = -1, itempropAt = -1
            for i in list.indices where list[i].prefix == nil {
                switch list[i].name.utf8.count {
                case 2 where idAt < 0 && list[i].name == "id":
                    idAt = i
                case 3 where relAt < 0 && list[i].name == "rel":
                    relAt = i
                case 4 where role == nil && list[i].name == "role":
                    role = list[i].value
                case 5 where classAt < 0 && list[i].name == "class":
                    classAt = i
                case 5 where style == nil && list[i].name == "style":
                    style = list[i].value
                case 6 where list[i].name == "hidden":
                    hidden = true
                case 8 where itempropAt < 0 && list[i].name == "itemprop":
                    itempropAt = i
                case 10 where ariaModal == nil && list[i].name == "aria-modal":
                    ariaModal = list[i].value
                case 11 where ariaHidden == nil && list[i].name == "aria-hidden":
                    ariaHidden = list[i].value
                default:
                    break
                }
            }
            Matching.writeMatch(list, classAt: classAt, idAt: idAt, into: &match)
            if ariaHidden == "true", classAt >= 0 { fallbackImage = list[classAt].value.containsBytes("fallback-image") }
            authorAttribute = (relAt >= 0 && list[relAt].value == "author")
                || (itempropAt >= 0 && list[itempropAt].value.containsBytes("author"))
        }
    }
}

extension Readability {
    /// `_isProbablyVisible`, over attributes already gathered.
    func isProbablyVisible(_ attributes: PrepAttributes) -> Bool {
        if let style = attributes.style, !style.isEmpty {
            let lowered = Matching.lowered(style)
            if Node.inlineStyle("display", in: style, lowered: lowered) == "none" { return false }
            if Node.inlineStyle("visibility", in: style, lowered: lowered) == "hidden" { return false }
        }
        if attributes.hidden { return false }
        if let ariaHidden = attributes.ariaHidden, ariaHidden == "true" {
            return attributes.fallbackImage
        }
        return true
    }
}
