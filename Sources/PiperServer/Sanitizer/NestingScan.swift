/// A cheap upper bound on how deeply a piece of HTML nests, computed before parsing.
///
/// The tree builder's work grows with the depth of its stack of open elements for every tag, so
/// pathological input (a million `<div>`s) would cost quadratic time. Real articles nest a few
/// dozen levels; `SaveRoute` refuses content whose bound exceeds `limit`.
///
/// The scan counts start tags minus end tags, skipping void and self-closing tags, tags the
/// parser closes implicitly (`p`, `li`, table cells …), comments and raw-text element bodies.
enum NestingScan {
    static let limit = 1024

    private static let noDepth: Set<[UInt8]> = Set([
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "rt", "rp", "tbody", "thead", "tfoot",
        "colgroup", "caption", "param", "keygen", "frame", "basefont", "bgsound", "image",
    ].map { Array($0.utf8) })

    private static let rawText: Set<[UInt8]> = Set([
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext",
    ].map { Array($0.utf8) })

    /// The bound; stops counting once it passes `stopAt`.
    static func maxDepth(_ html: String, stopAt: Int = limit + 1) -> Int {
        let bytes = Array(html.utf8)
        var i = 0, depth = 0, deepest = 0
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        func find(_ needle: [UInt8], from start: Int) -> Int {
            var j = start
            while j + needle.count <= bytes.count {
                var k = 0
                while k < needle.count, bytes[j + k] | (isAlpha(needle[k]) ? 0x20 : 0) == needle[k] { k += 1 }
                if k == needle.count { return j }
                j += 1
            }
            return bytes.count
        }
        while i < bytes.count, deepest < stopAt {
            guard bytes[i] == lt, i + 1 < bytes.count else { i += 1; continue }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "!") {
                i = bytes[i...].starts(with: Array("<!--".utf8)) ? find(Array("-->".utf8), from: i + 4) + 3 : (find([gt], from: i) + 1)
                continue
            }
            let isEnd = next == slash
            let nameStart = isEnd ? i + 2 : i + 1
            guard nameStart < bytes.count, isAlpha(bytes[nameStart]) else { i += 1; continue }
            var j = nameStart
            var name: [UInt8] = []
            while j < bytes.count, bytes[j] != gt, bytes[j] != slash, bytes[j] > 0x20 {
                name.append(isAlpha(bytes[j]) ? bytes[j] | 0x20 : bytes[j])
                j += 1
            }
            // Skip attributes to the closing '>' (quotes may contain '>').
            var quote: UInt8 = 0
            var selfClosing = false
            while j < bytes.count {
                let b = bytes[j]
                if quote != 0 { if b == quote { quote = 0 } }
                else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                else if b == gt { selfClosing = j > 0 && bytes[j - 1] == slash; break }
                j += 1
            }
            i = j + 1
            if noDepth.contains(name) { continue }
            if isEnd {
                depth = max(0, depth - 1)
            } else if rawText.contains(name) {
                i = find(Array("</".utf8) + name, from: i)
            } else if !selfClosing {
                depth += 1
                deepest = max(deepest, depth)
            }
        }
        return deepest
    }
}
