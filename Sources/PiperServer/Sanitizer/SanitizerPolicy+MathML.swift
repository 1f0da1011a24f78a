/// MathML that survives sanitizing: presentation markup only. No `href` or `xlink:*`, no
/// `maction` (it toggles and links), no `annotation`/`annotation-xml` (the second is an HTML
/// integration point: the known mutation-XSS path), no `mglyph`/`malignmark` (they change how
/// the parser treats the next tags inside `mtext`), and `semantics` keeps only its first child.
extension SanitizerPolicy {
    static let mathElements: Set<String> = [
        "math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "mfrac", "msqrt", "mroot", "mstyle",
        "merror", "mpadded", "mphantom", "menclose", "msub", "msup", "msubsup", "munder", "mover", "munderover",
        "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "semantics",
    ]

    /// MathML's token elements: text integration points, where the parser reads any start tag
    /// but `mglyph` and `malignmark` as HTML. Only text (and `math`) is written inside them.
    static let mathTokenElements: Set<String> = ["mi", "mn", "mo", "ms", "mtext"]

    /// Inert presentation attributes (no URLs, no style, no event handlers).
    static let mathAttributes: Set<String> = [
        "display", "dir", "mathvariant", "mathsize", "displaystyle", "scriptlevel", "fence", "separator",
        "stretchy", "symmetric", "largeop", "movablelimits", "accent", "accentunder", "form", "lspace", "rspace",
        "minsize", "maxsize", "linethickness", "numalign", "denomalign", "bevelled", "notation", "width", "height",
        "depth", "voffset", "columnalign", "rowalign", "columnspan", "rowspan", "columnlines", "rowlines", "frame",
        "align", "open", "close", "subscriptshift", "superscriptshift", "lquote", "rquote", "linebreak",
    ]

    /// Elements replaced by a link to what they embed (when that is an http(s) URL), and the
    /// attribute holding it.
    static let embedSources: [String: String] = ["iframe": "src", "embed": "src", "object": "data", "video": "src"]

    /// Hosts whose embeds are videos ("▶ Video: …" rather than "Embedded content: …").
    static let videoHosts: Set<String> = [
        "youtube.com", "youtube-nocookie.com", "youtu.be", "vimeo.com", "player.vimeo.com", "dailymotion.com",
        "twitch.tv", "player.twitch.tv", "ted.com", "embed.ted.com", "streamable.com", "wistia.com", "fast.wistia.net",
    ]
}
