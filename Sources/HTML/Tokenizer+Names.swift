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
    /// `TagNames.lookup[common[i]] ?? -1`.
    private let commonIDs: [Int32]
    /// Each name's bytes as two little-endian words, zero-padded to 16 bytes, and its length:
    /// a lookup compares two words and a length instead of the bytes one by one.
    private let keys: [Key]
    /// Open-addressing table of indices into `common`, keyed by `Key.hash`.
    private let table: [Int16]

    struct Key: Equatable {
        init() {}

        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0

        /// The key of `b` (at most 16 bytes).
        init(_ b: UnsafeBufferPointer<UInt8>) {
            count = b.count
            for (k, byte) in b.enumerated() {
                if k < 8 { low |= UInt64(byte) << (8 * k) } else { high |= UInt64(byte) << (8 * (k - 8)) }
            }
        }

        /// The key of the name in `run` (at most 16 bytes): two unaligned loads, masked to the
        /// name's length (a `ByteRun` always has room for 16 bytes).
        @inline(__always) init(_ run: ByteRun) {
            count = run.count
            let raw = UnsafeRawPointer(run.base)
            let a = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            low = count >= 8 ? a : a & ((1 &<< UInt64(count &* 8)) &- 1)
            high = count >= 16 ? b : count <= 8 ? 0 : b & ((1 &<< UInt64((count &- 8) &* 8)) &- 1)
        }

        @inline(__always) var hash: Int {
            let mixed = (low &+ high &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: mixed >> 54)  // 10 bits
        }
    }

    private init() {
        var names = Self.commonNames
        for name in TagNames.all where !names.contains(name) { names.append(name) }
        common = names
        commonIDs = names.map { TagNames.lookup[$0] ?? -1 }
        // Names longer than `longest` (none today) are never looked up: they get an empty key.
        let keys = names.map { name in
            name.utf8.count <= Self.longest ? Array(name.utf8).withUnsafeBufferPointer { Key($0) } : Key()
        }
        self.keys = keys
        var t = [Int16](repeating: -1, count: 1024)
        for (i, key) in keys.enumerated() where key.count > 0 {
            var h = key.hash
            while t[h] >= 0 {
                if keys[Int(t[h])] == key { break }
                h = (h + 1) & 1023
            }
            if t[h] < 0 { t[h] = Int16(i) }
        }
        table = t
    }

    func string(_ run: ByteRun) -> String {
        let i = find(run)
        return i >= 0 ? common[i] : run.string
    }

    /// A tag name and its number among the known names (-1 when HTML does not know it).
    func tagName(_ run: ByteRun) -> (String, Int32) {
        let i = find(run)
        return i >= 0 ? (common[i], commonIDs[i]) : (run.string, -1)
    }

    /// The index in `common` of the name spelled by `run`, or -1.
    @inline(__always) private func find(_ run: ByteRun) -> Int {
        guard run.count <= Self.longest, run.count > 0 else { return -1 }
        let key = Key(run)
        var h = key.hash
        return table.withUnsafeBufferPointer { table in
            keys.withUnsafeBufferPointer { keys in
                while true {
                    let i = Int(table[h])
                    if i < 0 { return -1 }
                    let k = keys[i]
                    if k.low == key.low && k.high == key.high && k.count == key.count { return i }
                    h = (h + 1) & 1023
                }
            }
        }
    }

    /// The longest name in the table ("selectedcontent").
    private static let longest = 15
}
