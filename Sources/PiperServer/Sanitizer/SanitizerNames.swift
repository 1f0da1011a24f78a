import HTML

/// The interned ids (`Node.localNameID`, the same in every document for names HTML knows) of
/// the names the sanitizer decides on, and its element policy as a table by id, so the walk
/// compares integers instead of hashing names.
enum SanitizerNames {
    /// A known name's id; -2, which no node has, for a name HTML does not intern.
    static func id(_ name: String) -> Int32 { HTMLElements.id(name) ?? -2 }

    static let a = id("a"), p = id("p"), li = id("li"), dd = id("dd"), dt = id("dt"), rt = id("rt"), rp = id("rp")
    static let pre = id("pre"), img = id("img"), source = id("source"), audio = id("audio"), video = id("video")
    static let iframe = id("iframe"), embed = id("embed"), object = id("object")
    static let math = id("math"), span = id("span"), svg = id("svg")
    /// MathML's token elements (`SanitizerPolicy.mathTokenElements`), all interned.
    static let mathTokens: [Int32] = SanitizerPolicy.mathTokenElements.map(id)

    /// `SanitizerPolicy.action(forHTMLElement:)` for every known id.
    private static let actions: [SanitizerPolicy.Action] = (0..<HTMLElements.knownCount).map {
        SanitizerPolicy.action(forHTMLElement: HTMLElements.name($0) ?? "")
    }

    /// The policy's action for an HTML element: by table for known names, by name otherwise
    /// (a custom element is unwrapped, unless the policy names it).
    @inline(__always) static func action(_ id: Int32, name: String) -> SanitizerPolicy.Action {
        id >= 0 && id < HTMLElements.knownCount ? actions[Int(id)] : SanitizerPolicy.action(forHTMLElement: name)
    }

    /// Elements `replaceEmbed` may turn into a link.
    @inline(__always) static func isEmbed(_ id: Int32) -> Bool {
        id == iframe || id == embed || id == object || id == video
    }
}
