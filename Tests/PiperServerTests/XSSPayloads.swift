/// Script-injection attempts for the sanitizer and the browser tests. Each payload, if it ran,
/// would set `document.title` to PWNED or add an element with id `pwned`, built at run time
/// ('PW' + 'NED') so the marker never appears in the payload text itself.
enum XSSPayloads {
    static let title = "document.title='PW'+'NED'"
    static let add = "document.body.appendChild(document.createElement('div')).id='pw'+'ned'"

    static let all: [String] = [
        "<script>\(title)</script>",
        "<SCRIPT>\(add)</SCRIPT>",
        "<ScRiPt src=\"https://evil.example/x.js\"></ScRiPt>",
        "<img src=x onerror=\"\(title)\">",
        "<IMG SRC=x OnErRoR=\"\(add)\">",
        "<img src=\"x\" onerror=&#x64;ocument.title='PW'+'NED'>",
        "<a href=\"javascript:\(title)\">click</a>",
        "<a href=\"JaVaScRiPt:\(add)\">mixed case</a>",
        "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;\(title)\">entities</a>",
        "<a href=\"&#x6A;avascript&colon;\(title)\">hex entity and colon</a>",
        "<a href=\"java&#x09;script:\(title)\">tab inside</a>",
        "<a href=\"  \u{1}javascript:\(title)\">leading control</a>",
        "<a href=\"vbscript:msgbox(1)\">vbscript</a>",
        "<a href=\"data:text/html,<script>\(title)</script>\">data html</a>",
        "<svg onload=\"\(title)\"><circle r=\"1\"/></svg>",
        "<svg><script>\(add)</script></svg>",
        "<svg><a xlink:href=\"javascript:\(title)\"><text>svg link</text></a></svg>",
        "<math><mtext><table><mglyph><style><img src=x onerror=\"\(title)\"></style></mglyph></table></mtext></math>",
        "<iframe srcdoc=\"<script>parent.\(title)</script>\"></iframe>",
        "<iframe src=\"javascript:parent.\(title)\"></iframe>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:\(title)\">",
        "<div style=\"background:url(javascript:alert(1))\">styled</div>",
        "<p style=\"width: expression(alert(1))\">expression</p>",
        "<style>body{background:url(\"javascript:alert(1)\")} p{behavior:url(x.htc)}</style>",
        "<object data=\"javascript:\(title)\"></object>",
        "<embed src=\"javascript:\(title)\">",
        "<form action=\"javascript:\(title)\"><button>go</button><input autofocus onfocus=\"\(title)\"></form>",
        "<base href=\"javascript:\(title)//\">",
        "<link rel=\"stylesheet\" href=\"https://evil.example/x.css\">",
        "<details open ontoggle=\"\(title)\"><summary>toggle</summary>details</details>",
        "<video src=x onerror=\"\(add)\"><source src=x onerror=\"\(title)\"></video>",
        "<audio src=x onerror=\"\(title)\"></audio>",
        "<img src=\"data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=\" alt=\"svg data\">",
        "<img srcset=\"javascript:alert(1) 1x, https://ok.example/a.png 2x\" alt=\"bad srcset\">",
        "<template><script>\(title)</script></template>",
        "<noscript><p title=\"</noscript><img src=x onerror=\\\"\(title)\\\">\"></noscript>",
        "<body onload=\"\(title)\"><p>body</p></body>",
        "<a href=\"https://ok.example/\" onclick=\"\(title)\" onmouseover=\"\(add)\">ok link</a>",
        "<xmp><script>\(title)</script></xmp>",
        "<!--<script>\(title)</script>-->",
        "<table><tr><td background=\"javascript:alert(1)\">cell</td></tr></table>",
        "<isindex action=\"javascript:\(title)\">",
        "<marquee onstart=\"\(title)\">marquee</marquee>",
    ]

    /// Lowercased fragments that must never appear in sanitized markup.
    static let forbidden = [
        "<script", "<svg", "<iframe", "<mglyph", "<annotation", "<maction", "<object", "<embed", "<form", "<meta", "<base", "<link",
        "<style", "<template", "<noscript", "<xmp", "<input", "<button", "<isindex", "<body",
        "javascript:", "vbscript:", "data:text", "data:image/svg", "srcdoc", "style=", "expression(",
        " on", "xlink", "background=", "<!--",
    ]
}
