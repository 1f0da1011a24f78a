// Sets of tag names as bits over the parser's name numbers (`Node.localNameID`), so the walks
// that classify every element test a bit instead of hashing or comparing strings.
import HTML

struct TagSet {
    private var words: [UInt64] = [0, 0, 0, 0]

    /// Every name must be one HTML knows (a programming error otherwise).
    init(_ names: [String]) {
        for name in names {
            guard let id = Document.knownNameID(name), id < 256 else { preconditionFailure("unknown tag name \(name)") }
            words[Int(id >> 6)] |= 1 << UInt64(id & 63)
        }
    }

    /// The known names in one of HTML's element categories (`HTMLElements`).
    init(where category: (Int32) -> Bool) {
        for id in 0..<min(HTMLElements.knownCount, 256) where category(id) {
            words[Int(id >> 6)] |= 1 << UInt64(id & 63)
        }
    }

    /// Whether `id` (a `localNameID`) names one of the set's tags.
    @inline(__always) func contains(_ id: Int32) -> Bool {
        id >= 0 && id < 256 && words[Int(id >> 6)] & (1 << UInt64(id & 63)) != 0
    }
}

/// The name numbers of single tags that hot loops compare against.
enum TagID {
    static let a = Document.knownNameID("a")!
    static let del = Document.knownNameID("del")!
    static let ins = Document.knownNameID("ins")!
    static let div = Document.knownNameID("div")!
    static let html = Document.knownNameID("html")!
    static let body = Document.knownNameID("body")!
    static let h1 = Document.knownNameID("h1")!
    static let h2 = Document.knownNameID("h2")!
    static let ul = Document.knownNameID("ul")!
    static let ol = Document.knownNameID("ol")!
    static let table = Document.knownNameID("table")!
    static let p = Document.knownNameID("p")!
    static let img = Document.knownNameID("img")!
    static let li = Document.knownNameID("li")!
    static let input = Document.knownNameID("input")!
    static let svg = Document.knownNameID("svg")!
    static let br = Document.knownNameID("br")!
    static let hr = Document.knownNameID("hr")!
    static let script = Document.knownNameID("script")!
    static let noscript = Document.knownNameID("noscript")!
    static let style = Document.knownNameID("style")!
    static let font = Document.knownNameID("font")!
}
