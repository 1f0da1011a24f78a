// Readability.js's regular expressions as plain string predicates. Regex engines are too
// slow on the per-node hot paths, so each pattern is a substring or prefix check here, with
// the original pattern in a comment beside it. Unit tests pin positive and negative cases.

import HTML

enum Matching {
    // /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|
    //  header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|
    //  supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i
    static let unlikelyCandidateWords = WordSet(
        "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
        "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
        "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
        "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote")

    // /and|article|body|column|content|main|mathjax|shadow/i
    static let okMaybeItsACandidateWords = WordSet(
        "and", "article", "body", "column", "content", "main", "mathjax", "shadow")

    // /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i
    static let positiveWords = WordSet(
        "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination",
        "post", "text", "blog", "story")

    // /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|
    //  media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|
    //  tags|widget/i   (the four "hid" alternatives are checked separately)
    static let negativeWords = WordSet(
        "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
        "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox",
        "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget")

    // /byline|author|dateline|writtenby|p-author/i
    static let bylineWords = WordSet("byline", "author", "dateline", "writtenby", "p-author")

    static func isUnlikelyCandidate(_ s: String) -> Bool { containsAny(s, unlikelyCandidateWords) }
    static func isOkMaybeItsACandidate(_ s: String) -> Bool { containsAny(s, okMaybeItsACandidateWords) }
    /// The same two checks on an already lowercased match string.
    static func isUnlikelyCandidate(lowered b: [UInt8]) -> Bool { containsAny(b, unlikelyCandidateWords) }
    static func isOkMaybeItsACandidate(lowered b: [UInt8]) -> Bool { containsAny(b, okMaybeItsACandidateWords) }
    static func isByline(lowered b: [UInt8]) -> Bool { containsAny(b, bylineWords) }
    static func isPositive(_ s: String) -> Bool { containsAny(s, positiveWords) }
    static func isByline(_ s: String) -> Bool { containsAny(s, bylineWords) }

    static func isNegative(_ s: String) -> Bool { isNegative(lowered: lowered(s)) }
    static func isPositive(lowered b: [UInt8]) -> Bool { containsAny(b, positiveWords) }

    static func isNegative(lowered b: [UInt8]) -> Bool {
        if containsAny(b, negativeWords) { return true }
        // ^hid$| hid$| hid |^hid : "hid" bounded by string edges or single spaces.
        var i = 0
        while let at = find(b, hidWord, from: i) {
            let before = at == 0 || b[at - 1] == 0x20
            let end = at + 3
            let after = end == b.count || b[end] == 0x20
            if before && after { return true }
            i = at + 1
        }
        return false
    }
    private static let hidWord: [UInt8] = Array("hid".utf8)

    // /(\b|_)(share|sharedaddy)(\b|_)/i
    static func isShareElement(_ s: String) -> Bool { isShareElement(lowered: lowered(s)) }

    static func isShareElement(lowered b: [UInt8]) -> Bool {
        var i = 0
        while let at = find(b, shareWord, from: i) {
            let beforeOK = at == 0 || !isWordByte(b[at - 1]) || b[at - 1] == 0x5F
            if beforeOK {
                for length in [5, 10] where length == 5 || hasPrefix(b, sharedaddyWord, at: at) {
                    let end = at + length
                    if end == b.count || !isWordByte(b[end]) || b[end] == 0x5F { return true }
                }
            }
            i = at + 1
        }
        return false
    }
    private static let shareWord: [UInt8] = Array("share".utf8)
    private static let sharedaddyWord: [UInt8] = Array("sharedaddy".utf8)

    // /\/\/(www\.)?((dailymotion|youtube|youtube-nocookie|player\.vimeo|v\.qq)\.com|
    //   (archive|upload\.wikimedia)\.org|player\.twitch\.tv)/i
    static func isAllowedVideo(_ s: String) -> Bool {
        let b = lowered(s)
        var i = 0
        while let at = find(b, slashes, from: i) {
            var start = at + 2
            for host in videoHosts where hasPrefix(b, host, at: start) { return true }
            if hasPrefix(b, www, at: start) {
                start += 4
                for host in videoHosts where hasPrefix(b, host, at: start) { return true }
            }
            i = at + 1
        }
        return false
    }
    private static let slashes: [UInt8] = Array("//".utf8)
    private static let www: [UInt8] = Array("www.".utf8)
    private static let videoHosts: [[UInt8]] = words(
        "dailymotion.com", "youtube.com", "youtube-nocookie.com", "player.vimeo.com", "v.qq.com",
        "archive.org", "upload.wikimedia.org", "player.twitch.tv")

    // /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu
    static func isAdWords(_ s: String) -> Bool {
        adWords.contains(s.lowercased())
    }
    private static let adWords: Set<String> = [
        "ad", "advertising", "advertisement", "pub", "publicité", "werb", "werbung", "广告",
        "реклама", "anuncio",
    ]

    // /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu
    static func isLoadingWords(_ s: String) -> Bool {
        var t = s.lowercased()
        if t.hasSuffix("…") { t.removeLast() } else if t.hasSuffix("...") { t.removeLast(3) }
        return loadingWords.contains(t)
    }
    private static let loadingWords: Set<String> = ["loading", "正在加载", "загрузка", "chargement", "cargando"]

    // /\.(jpg|jpeg|png|webp)/i
    static func hasImageExtension(_ s: String) -> Bool {
        let b = lowered(s)
        var i = 0
        while let at = find(b, dot, from: i) {
            for ext in imageExtensions where hasPrefix(b, ext, at: at + 1) { return true }
            i = at + 1
        }
        return false
    }
    private static let dot: [UInt8] = [0x2E]
    private static let imageExtensions: [[UInt8]] = words("jpg", "jpeg", "png", "webp")

    // /\.(jpg|jpeg|png|webp)\s+\d/   (case-sensitive)
    static func looksLikeSrcset(_ s: String) -> Bool {
        let b = Array(s.utf8)
        var i = 0
        while let at = find(b, dot, from: i) {
            for ext in imageExtensions where hasPrefix(b, ext, at: at + 1) {
                var j = at + 1 + ext.count
                let spaceStart = j
                while j < b.count, isASCIISpace(b[j]) { j += 1 }
                if j > spaceStart, j < b.count, b[j] >= 0x30, b[j] <= 0x39 { return true }
            }
            i = at + 1
        }
        return false
    }

    // /^\s*\S+\.(jpg|jpeg|png|webp)\S*\s*$/   (case-sensitive)
    static func looksLikeImageURL(_ s: String) -> Bool {
        let trimmed = JSString.trim(s)
        if trimmed.isEmpty || trimmed.unicodeScalars.contains(where: JSString.isSpace) { return false }
        let b = Array(trimmed.utf8)
        // Need at least one non-space before ".ext".
        var i = 1
        while let at = find(b, dot, from: i) {
            for ext in imageExtensions where hasPrefix(b, ext, at: at + 1) { return true }
            i = at + 1
        }
        return false
    }

    // /^#.+/
    static func isHashURL(_ s: String) -> Bool {
        var it = s.unicodeScalars.makeIterator()
        guard it.next() == "#" else { return false }
        while let c = it.next() { if c != "\n" && c != "\r" && c != "\u{2028}" && c != "\u{2029}" { return true } }
        return false
    }

    // /\u002C|\u060C|\uFE50|\uFE10|\uFE11|\u2E41|\u2E34|\u2E32|\uFF0C/g : split count = commas + 1
    static func commaSplitCount(_ s: String) -> Int {
        var n = 1
        for c in s.unicodeScalars {
            switch c.value {
            case 0x2C, 0x60C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C: n += 1
            default: break
            }
        }
        return n
    }

    // MARK: byte helpers

    static func words(_ list: String...) -> [[UInt8]] { list.map { Array($0.utf8) } }

    static func lowered(_ s: String) -> [UInt8] {
        var out = Array(s.utf8)
        lowercaseASCII(&out)
        return out
    }

    /// Element `index`'s `className + " " + id` in ASCII lowercase, written into `match`
    /// (the attributes read in place).
    static func matchString(of index: Int32, in document: Document, into match: inout [UInt8]) {
        document.withAttributes(at: index) { list in
            var classAt = -1, idAt = -1
            for i in list.indices where list[i].prefix == nil {
                let count = list[i].name.utf8.count
                if count == 5 && classAt < 0 && list[i].name == "class" { classAt = i }
                if count == 2 && idAt < 0 && list[i].name == "id" { idAt = i }
            }
            writeMatch(list, classAt: classAt, idAt: idAt, into: &match)
        }
    }

    /// Writes `className + " " + id` in ASCII lowercase into the emptied `match`, from the
    /// positions of the class and id attributes in `list` (-1: absent).
    static func writeMatch(_ list: UnsafeBufferPointer<Attribute>, classAt: Int, idAt: Int, into match: inout [UInt8]) {
        match.removeAll(keepingCapacity: true)
        if classAt >= 0 { match.append(contentsOf: list[classAt].value.utf8) }
        match.append(0x20)
        if idAt >= 0 { match.append(contentsOf: list[idAt].value.utf8) }
        lowercaseASCII(&match)
    }

    static func lowercaseASCII(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in bytes.indices where bytes[i] &- 0x41 < 26 { bytes[i] |= 0x20 }
        }
    }

    static func containsAny(_ s: String, _ list: [[UInt8]]) -> Bool {
        if s.isEmpty { return false }
        return containsAny(lowered(s), list)
    }

    static func containsAny(_ b: [UInt8], _ list: [[UInt8]]) -> Bool {
        for w in list where find(b, w, from: 0) != nil { return true }
        return false
    }

    static func find(_ b: [UInt8], _ w: [UInt8], from: Int) -> Int? {
        ByteSearch.firstIndex(of: w, in: b, from: from)
    }

    static func hasPrefix(_ b: [UInt8], _ w: [UInt8], at: Int) -> Bool {
        if at < 0 || at + w.count > b.count { return false }
        for j in 0..<w.count where b[at + j] != w[j] { return false }
        return true
    }

    static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }

    static func isASCIISpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D
    }
}
