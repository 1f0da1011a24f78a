// The attributes the node-prepping walk reads of every element, gathered in one pass over its
// attribute list instead of one lookup per name (most elements have none at all).
import HTML

struct PrepAttributes {
    var className = ""
    var id = ""
    var style: String?
    var hidden = false
    var ariaHidden: String?
    var ariaModal: String?
    var role: String?

    /// What `getAttribute` would answer for each name: the first unprefixed attribute so named.
    init(_ node: Node) {
        let attributes = node.attributes
        if attributes.isEmpty { return }
        var seenClass = false, seenID = false
        // Fields read in place: a copy of each attribute would cost reference counts.
        attributes.withUnsafeBufferPointer { list in
            for i in list.indices where list[i].prefix == nil {
                switch list[i].name.utf8.count {
                case 2 where list[i].name == "id" && !seenID:
                    id = list[i].value
                    seenID = true
                case 4 where list[i].name == "role" && role == nil:
                    role = list[i].value
                case 5 where list[i].name == "class" && !seenClass:
                    className = list[i].value
                    seenClass = true
                case 5 where list[i].name == "style" && style == nil:
                    style = list[i].value
                case 6 where list[i].name == "hidden":
                    hidden = true
                case 10 where list[i].name == "aria-modal" && ariaModal == nil:
                    ariaModal = list[i].value
                case 11 where list[i].name == "aria-hidden" && ariaHidden == nil:
                    ariaHidden = list[i].value
                default:
                    break
                }
            }
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
            return attributes.className.containsBytes("fallback-image")
        }
        return true
    }
}
