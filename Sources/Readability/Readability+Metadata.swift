// _getArticleMetadata: <meta> tags (OpenGraph, Dublin Core, Twitter, Parsely, Weibo,
// article:*) merged with JSON-LD, plus _unescapeHtmlEntities and _isUrl.
import HTML

extension Readability {
    private static let propertyPrefixes = ["article", "dc", "dcterm", "og", "twitter"]
    private static let propertySuffixes = ["author", "creator", "description", "published_time", "title", "site_name"]
    private static let namePrefixes = ["dc", "dcterm", "og", "twitter", "parsely", "weibo:article", "weibo:webpage"]
    private static let nameSuffixes: Set<String> = ["author", "creator", "pub-date", "description", "title", "site_name"]

    /// `/\s*(article|dc|dcterm|og|twitter)\s*:\s*(author|creator|description|published_time|title|site_name)\s*/gi`:
    /// the first match, lowercased and without whitespace.
    static func matchMetaProperty(_ property: String) -> String? {
        let s = Array(property.lowercased().unicodeScalars)
        // The words are ASCII: compared scalar by scalar in place, without building arrays.
        func has(_ word: [UInt8], at i: Int) -> Bool {
            guard i + word.count <= s.count else { return false }
            for k in 0..<word.count where s[i + k].value != UInt32(word[k]) { return false }
            return true
        }
        for start in 0..<s.count {
            for (p, prefix) in propertyPrefixBytes.enumerated() where has(prefix, at: start) {
                var i = start + prefix.count
                while i < s.count, JSString.isSpace(s[i]) { i += 1 }
                guard i < s.count, s[i] == ":" else { continue }
                i += 1
                while i < s.count, JSString.isSpace(s[i]) { i += 1 }
                for (k, suffix) in propertySuffixBytes.enumerated() where has(suffix, at: i) {
                    return propertyPrefixes[p] + ":" + propertySuffixes[k]
                }
            }
        }
        return nil
    }

    private static let propertyPrefixBytes = propertyPrefixes.map { Array($0.utf8) }
    private static let propertySuffixBytes = propertySuffixes.map { Array($0.utf8) }

    /// `/^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))\s*[-\.:]\s*)?(author|creator|pub-date|description|title|site_name)\s*$/i`
    static func matchesMetaName(_ name: String) -> Bool {
        let s = JSString.trim(name).lowercased()
        if nameSuffixes.contains(s) { return true }
        for prefix in namePrefixes where s.hasPrefix(prefix) {
            var rest = Substring(s.dropFirst(prefix.count))
            rest = rest.drop(while: { $0.unicodeScalars.allSatisfy(JSString.isSpace) })
            guard let sep = rest.first, sep == "-" || sep == "." || sep == ":" else { continue }
            rest = rest.dropFirst().drop(while: { $0.unicodeScalars.allSatisfy(JSString.isSpace) })
            if nameSuffixes.contains(String(rest)) { return true }
        }
        return false
    }

    func getArticleMetadata(_ jsonld: Metadata) -> Metadata {
        var values: [String: String] = [:]
        for element in elements(doc.node, "meta") {
            guard let content = element.getAttribute("content"), !content.isEmpty else { continue }
            var matched = false
            if let property = element.getAttribute("property"), !property.isEmpty,
               let name = Readability.matchMetaProperty(property) {
                matched = true
                values[name] = JSString.trim(content)
            }
            if !matched, let elementName = element.getAttribute("name"), !elementName.isEmpty,
               Readability.matchesMetaName(elementName) {
                let name = JSString.dotsToColons(JSString.removingSpaces(elementName.lowercased()))
                values[name] = JSString.trim(content)
            }
        }

        func first(_ candidates: String?...) -> String? {
            for c in candidates where !c.isNilOrEmpty { return c }
            return nil
        }

        var metadata = Metadata()
        metadata.title = first(
            jsonld.title, values["dc:title"], values["dcterm:title"], values["og:title"],
            values["weibo:article:title"], values["weibo:webpage:title"], values["title"],
            values["twitter:title"], values["parsely-title"])
        if metadata.title.isNilOrEmpty { metadata.title = getArticleTitle() }

        var articleAuthor: String?
        if let author = values["article:author"], !Readability.isURL(author) { articleAuthor = author }
        metadata.byline = first(
            jsonld.byline, values["dc:creator"], values["dcterm:creator"], values["author"],
            values["parsely-author"], articleAuthor)
        metadata.excerpt = first(
            jsonld.excerpt, values["dc:description"], values["dcterm:description"],
            values["og:description"], values["weibo:article:description"],
            values["weibo:webpage:description"], values["description"], values["twitter:description"])
        metadata.siteName = first(jsonld.siteName, values["og:site_name"])
        metadata.publishedTime = first(jsonld.publishedTime, values["article:published_time"], values["parsely-pub-date"])

        metadata.title = metadata.title.map(Readability.unescapeHtmlEntities)
        metadata.byline = metadata.byline.map(Readability.unescapeHtmlEntities)
        metadata.excerpt = metadata.excerpt.map(Readability.unescapeHtmlEntities)
        metadata.siteName = metadata.siteName.map(Readability.unescapeHtmlEntities)
        metadata.publishedTime = metadata.publishedTime.map(Readability.unescapeHtmlEntities)
        return metadata
    }

    /// `_isUrl`: would `new URL(str)` succeed (an absolute URL)?
    static func isURL(_ s: String) -> Bool {
        let t = JSString.trim(s)
        guard let colon = t.firstIndex(of: ":") else { return false }
        let scheme = t[..<colon]
        guard let f = scheme.first, f.isASCII, f.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return false }
        let rest = t[t.index(after: colon)...]
        if ["http", "https", "ftp", "ws", "wss"].contains(scheme.lowercased()) {
            let host = rest.drop(while: { $0 == "/" || $0 == "\\" }).prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
            return !host.isEmpty
        }
        return true
    }

    /// `_unescapeHtmlEntities`: the five XML entities, then numeric references.
    static func unescapeHtmlEntities(_ str: String) -> String {
        if str.isEmpty || !str.containsBytes("&") { return str }
        // Each step is one left-to-right pass, like String.replace with a global regex.
        return replaceNumeric(replaceNamed(str))
    }

    private static func replaceNamed(_ s: String) -> String {
        let names: [(String, String)] = [("quot;", "\""), ("amp;", "&"), ("apos;", "'"), ("lt;", "<"), ("gt;", ">")]
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let hit = names.first(where: { after.hasPrefix($0.0) }) {
                out += hit.1
                rest = after.dropFirst(hit.0.count)
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out
    }

    private static func replaceNumeric(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(s.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "&", i + 2 < scalars.count, scalars[i + 1] == "#" {
                var j = i + 2
                var hex = false
                if scalars[j] == "x" || scalars[j] == "X" { hex = true; j += 1 }
                let digitsStart = j
                var value: UInt64 = 0
                while j < scalars.count {
                    let c = scalars[j]
                    let d: UInt64?
                    switch c.value {
                    case 0x30...0x39: d = UInt64(c.value - 0x30)
                    case 0x61...0x66 where hex: d = UInt64(c.value - 0x61 + 10)
                    case 0x41...0x46 where hex: d = UInt64(c.value - 0x41 + 10)
                    default: d = nil
                    }
                    guard let d else { break }
                    value = min(value * (hex ? 16 : 10) + d, 0x1_0000_0000)
                    j += 1
                }
                if j > digitsStart, j < scalars.count, scalars[j] == ";" {
                    var v = value
                    if v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) { v = 0xFFFD }
                    out.append(Unicode.Scalar(UInt32(v)) ?? "\u{FFFD}")
                    i = j + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }
}
