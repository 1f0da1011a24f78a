// Tag and attribute names as Strings. Names up to 15 UTF-8 bytes are small Strings (stored
// inline, no allocation); the common ones and every name HTML knows skip UTF-8 validation
// through a lookup table, which also gives a tag name's number (`TagNames`).

struct TokenNames {
    /// One shared table; each tokenizer keeps a reference so the hot path skips the
    /// lazy-global check.
    static let shared = TokenNames()

    /// The most frequent element and attribute names in real pages.
    private static let commonNames: [String] = [
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo",
        "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
        "colgroup", "data", "dd", "del", "details", "dfn", "dialog", "div", "dl", "dt", "em",
        "embed", "fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i", "iframe", "img", "input",
        "ins", "kbd", "label", "legend", "li", "link", "main", "mark", "math", "menu", "meta",
        "nav", "noscript", "object", "ol", "optgroup", "option", "p", "param", "path", "picture",
        "pre", "q", "s", "script", "section", "select", "small", "source", "span", "strong",
        "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea",
        "tfoot", "th", "thead", "time", "title", "tr", "u", "ul", "var", "video", "wbr",
        "alt", "class", "content", "height", "href", "id", "lang", "name", "property", "rel",
        "role", "src", "srcset", "style", "target", "type", "width", "charset", "sizes", "loading",
        "itemprop", "dir", "value", "async", "defer", "media", "crossorigin", "integrity",
        "datetime", "colspan", "rowspan", "viewbox", "xmlns", "fill", "d", "g",
    ]

    private let common: [String]
    private let commonBytes: [[UInt8]]
    /// `TagNames.lookup[common[i]] ?? -1`.
    private let commonIDs: [Int32]
    /// Open-addressing table keyed by (length, first, second, last byte) hash.
    private let table: [Int16]

    private init() {
        var names = Self.commonNames
        for name in TagNames.all where !names.contains(name) { names.append(name) }
        common = names
        commonIDs = names.map { TagNames.lookup[$0] ?? -1 }
        commonBytes = common.map { Array($0.utf8) }
        var t = [Int16](repeating: -1, count: 1024)
        for (i, s) in common.enumerated() {
            var h = Self.hash(Array(s.utf8))
            while t[h] >= 0 {
                if common[Int(t[h])] == s { break }
                h = (h + 1) & 1023
            }
            t[h] = Int16(i)
        }
        table = t
    }

    @inline(__always) private static func hash<C: RandomAccessCollection>(_ b: C) -> Int where C.Element == UInt8, C.Index == Int {
        guard let first = b.first, let last = b.last else { return 0 }
        var h = b.count &* 31 &+ Int(first) &* 7 &+ Int(last) &* 131
        if b.count > 2 { h = h &+ Int(b[b.startIndex + 1]) &* 17 }
        return h & 1023
    }

    @inline(__always) private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            for k in 0..<a.count where a[k] != b[k] { return false }
            return true
        }
    }

    func string(_ b: UnsafeBufferPointer<UInt8>) -> String {
        let i = find(b)
        return i >= 0 ? common[i] : String(decoding: b, as: UTF8.self)
    }

    /// A tag name and its number among the known names (-1 when HTML does not know it).
    func tagName(_ b: UnsafeBufferPointer<UInt8>) -> (String, Int32) {
        let i = find(b)
        return i >= 0 ? (common[i], commonIDs[i]) : (String(decoding: b, as: UTF8.self), -1)
    }

    /// The table slot of the name spelled by `b`, or -1.
    @inline(__always) private func find(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard b.count <= Self.longest else { return -1 }
        var h = Self.hash(b)
        while true {
            let i = Int(table[h])
            if i < 0 { return -1 }
            if Self.same(commonBytes[i], b) { return i }
            h = (h + 1) & 1023
        }
    }

    /// The longest name in the table ("selectedcontent").
    private static let longest = 15
}
