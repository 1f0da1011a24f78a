// Interned tag names: a small integer per known name, so the tree builder's scope checks
// and the DOM's `hasTag` are integer compares. Generated once from the list below; names
// unknown here are interned per document (ids >= `TagNames.knownCount`).

/// Tag name ids. The order matches `TagNames.all`.
enum Tag {
    static let a: Int32 = 0
    static let abbr: Int32 = 1
    static let address: Int32 = 2
    static let applet: Int32 = 3
    static let area: Int32 = 4
    static let article: Int32 = 5
    static let aside: Int32 = 6
    static let audio: Int32 = 7
    static let b: Int32 = 8
    static let base: Int32 = 9
    static let basefont: Int32 = 10
    static let bdi: Int32 = 11
    static let bdo: Int32 = 12
    static let bgsound: Int32 = 13
    static let big: Int32 = 14
    static let blink: Int32 = 15
    static let blockquote: Int32 = 16
    static let body: Int32 = 17
    static let br: Int32 = 18
    static let button: Int32 = 19
    static let canvas: Int32 = 20
    static let caption: Int32 = 21
    static let center: Int32 = 22
    static let cite: Int32 = 23
    static let code: Int32 = 24
    static let col: Int32 = 25
    static let colgroup: Int32 = 26
    static let data: Int32 = 27
    static let datalist: Int32 = 28
    static let dd: Int32 = 29
    static let del: Int32 = 30
    static let details: Int32 = 31
    static let dfn: Int32 = 32
    static let dialog: Int32 = 33
    static let dir: Int32 = 34
    static let div: Int32 = 35
    static let dl: Int32 = 36
    static let dt: Int32 = 37
    static let em: Int32 = 38
    static let embed: Int32 = 39
    static let fieldset: Int32 = 40
    static let figcaption: Int32 = 41
    static let figure: Int32 = 42
    static let font: Int32 = 43
    static let footer: Int32 = 44
    static let form: Int32 = 45
    static let frame: Int32 = 46
    static let frameset: Int32 = 47
    static let h1: Int32 = 48
    static let h2: Int32 = 49
    static let h3: Int32 = 50
    static let h4: Int32 = 51
    static let h5: Int32 = 52
    static let h6: Int32 = 53
    static let head: Int32 = 54
    static let header: Int32 = 55
    static let hgroup: Int32 = 56
    static let hr: Int32 = 57
    static let html: Int32 = 58
    static let i: Int32 = 59
    static let iframe: Int32 = 60
    static let image: Int32 = 61
    static let img: Int32 = 62
    static let input: Int32 = 63
    static let ins: Int32 = 64
    static let isindex: Int32 = 65
    static let kbd: Int32 = 66
    static let keygen: Int32 = 67
    static let label: Int32 = 68
    static let legend: Int32 = 69
    static let li: Int32 = 70
    static let link: Int32 = 71
    static let listing: Int32 = 72
    static let main: Int32 = 73
    static let map: Int32 = 74
    static let mark: Int32 = 75
    static let marquee: Int32 = 76
    static let menu: Int32 = 77
    static let menuitem: Int32 = 78
    static let meta: Int32 = 79
    static let meter: Int32 = 80
    static let nav: Int32 = 81
    static let nobr: Int32 = 82
    static let noembed: Int32 = 83
    static let noframes: Int32 = 84
    static let noscript: Int32 = 85
    static let object: Int32 = 86
    static let ol: Int32 = 87
    static let optgroup: Int32 = 88
    static let option: Int32 = 89
    static let output: Int32 = 90
    static let p: Int32 = 91
    static let param: Int32 = 92
    static let picture: Int32 = 93
    static let plaintext: Int32 = 94
    static let pre: Int32 = 95
    static let progress: Int32 = 96
    static let q: Int32 = 97
    static let rb: Int32 = 98
    static let rp: Int32 = 99
    static let rt: Int32 = 100
    static let rtc: Int32 = 101
    static let ruby: Int32 = 102
    static let s: Int32 = 103
    static let samp: Int32 = 104
    static let script: Int32 = 105
    static let search: Int32 = 106
    static let section: Int32 = 107
    static let select: Int32 = 108
    static let selectedcontent: Int32 = 109
    static let slot: Int32 = 110
    static let small: Int32 = 111
    static let source: Int32 = 112
    static let span: Int32 = 113
    static let strike: Int32 = 114
    static let strong: Int32 = 115
    static let style: Int32 = 116
    static let sub: Int32 = 117
    static let summary: Int32 = 118
    static let sup: Int32 = 119
    static let table: Int32 = 120
    static let tbody: Int32 = 121
    static let td: Int32 = 122
    static let template: Int32 = 123
    static let textarea: Int32 = 124
    static let tfoot: Int32 = 125
    static let th: Int32 = 126
    static let thead: Int32 = 127
    static let time: Int32 = 128
    static let title: Int32 = 129
    static let tr: Int32 = 130
    static let track: Int32 = 131
    static let tt: Int32 = 132
    static let u: Int32 = 133
    static let ul: Int32 = 134
    static let `var`: Int32 = 135
    static let video: Int32 = 136
    static let wbr: Int32 = 137
    static let xmp: Int32 = 138
    static let math: Int32 = 139
    static let svg: Int32 = 140
    static let mi: Int32 = 141
    static let mo: Int32 = 142
    static let mn: Int32 = 143
    static let ms: Int32 = 144
    static let mtext: Int32 = 145
    static let annotationXml: Int32 = 146
    static let mglyph: Int32 = 147
    static let malignmark: Int32 = 148
    static let foreignObject: Int32 = 149
    static let desc: Int32 = 150
}

enum TagNames {
    /// Every known name, indexed by its id.
    static let all: [String] = [
        "a", "abbr", "address", "applet", "area", "article", "aside", "audio", "b", "base",
        "basefont", "bdi", "bdo", "bgsound", "big", "blink", "blockquote", "body", "br", "button",
        "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist", "dd",
        "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset",
        "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
        "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "image", "img",
        "input", "ins", "isindex", "kbd", "keygen", "label", "legend", "li", "link", "listing",
        "main", "map", "mark", "marquee", "menu", "menuitem", "meta", "meter", "nav", "nobr",
        "noembed", "noframes", "noscript", "object", "ol", "optgroup", "option", "output", "p",
        "param", "picture", "plaintext", "pre", "progress", "q", "rb", "rp", "rt", "rtc", "ruby",
        "s", "samp", "script", "search", "section", "select", "selectedcontent", "slot", "small",
        "source", "span", "strike", "strong", "style", "sub", "summary", "sup", "table", "tbody",
        "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt",
        "u", "ul", "var", "video", "wbr", "xmp", "math", "svg", "mi", "mo", "mn", "ms", "mtext",
        "annotation-xml", "mglyph", "malignmark", "foreignObject", "desc",
    ]
    static let knownCount = Int32(all.count)
    /// Name to id for the known names.
    static let lookup: [String: Int32] = {
        var table: [String: Int32] = [:]
        table.reserveCapacity(all.count)
        for (i, name) in all.enumerated() { table[name] = Int32(i) }
        return table
    }()
}
