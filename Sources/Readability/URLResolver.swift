// A small WHATWG-style URL resolver: `new URL(input, base).href` for the cases articles
// contain (absolute, scheme-relative, path-absolute, query, fragment, relative paths with
// dot segments), with the spec's percent-encoding of paths, queries and fragments.

import HTML

struct ResolvedURL {
    var scheme: String
    /// "//user@host:port" part, nil for opaque URLs (mailto:, data:, javascript:).
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    var href: String {
        var s = scheme + ":"
        if let authority { s += "//" + authority }
        s += path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }

    static let specialSchemes: Set<String> = ["http", "https", "ftp", "ws", "wss", "file"]
    static let defaultPorts: [String: String] = ["http": "80", "https": "443", "ftp": "21", "ws": "80", "wss": "443"]

    var isSpecial: Bool { ResolvedURL.specialSchemes.contains(scheme) }

    /// `new URL(input, base).href`, with a fast path for absolute http(s) URLs that are
    /// already in their serialised form.
    static func resolve(_ raw: String, base: ResolvedURL) -> String? {
        if isCanonicalHTTP(raw) { return raw }
        return parse(raw, base: base)?.href
    }

    /// True for "http(s)://host/..." made of characters no step of the URL parser changes:
    /// lowercase host without port or userinfo, no dot segments, nothing to percent-encode.
    static func isCanonicalHTTP(_ s: String) -> Bool {
        let b = Array(s.utf8)
        let prefixLength: Int
        if b.starts(with: Array("https://".utf8)) { prefixLength = 8 } else if b.starts(with: Array("http://".utf8)) { prefixLength = 7 } else { return false }
        var i = prefixLength
        var hostLength = 0
        while i < b.count, b[i] != 0x2F {
            let c = b[i]
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
            if !ok { return false }
            hostLength += 1
            i += 1
        }
        guard hostLength > 0, i < b.count, b[prefixLength] != 0x2E, b[i - 1] != 0x2E else { return false }
        var segmentStart = i + 1
        var inPath = true
        i += 1
        while i <= b.count {
            let c: UInt8 = i < b.count ? b[i] : 0x2F
            if c <= 0x20 || c >= 0x7F { return false }
            switch c {
            case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, 0x27, 0x25: return false  // " < > \ ^ ` { | } ' %
            default: break
            }
            if inPath && (c == 0x2F || c == 0x3F || c == 0x23 || i == b.count) {
                let segment = b[segmentStart..<min(i, b.count)]
                if segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E]) { return false }
                segmentStart = i + 1
                if c == 0x3F || c == 0x23 { inPath = false }
            }
            i += 1
        }
        return true
    }

    /// Parses `input` against `base`; nil when `new URL()` would throw.
    static func parse(_ raw: String, base: ResolvedURL? = nil) -> ResolvedURL? {
        var s = URLInput.stripped(raw)

        var fragment: String?
        if let (before, after) = split(s, atFirst: 0x23) {   // #
            fragment = encode(after, set: .fragment)
            s = before
        }

        if let scheme = schemeOf(s) {
            let rest = String(s[s.utf8.index(s.startIndex, offsetBy: scheme.utf8.count + 1)...])
            if specialSchemes.contains(scheme) {
                if let base, base.scheme == scheme, !rest.hasPrefix("/"), !rest.hasPrefix("\\") {
                    return relative(rest, base: base, fragment: fragment)
                }
                if scheme == "file" {
                    // file:///path has an empty host; file:/path and file:path are paths.
                    let afterHost = rest.hasPrefix("//") ? String(rest.dropFirst(2)) : (rest.hasPrefix("/") ? rest : "/" + rest)
                    return withAuthority(scheme: scheme, afterHost, fragment: fragment)
                }
                let afterSlashes = Substring(rest).drop(while: { $0 == "/" || $0 == "\\" })
                return withAuthority(scheme: scheme, String(afterSlashes), fragment: fragment)
            }
            // Opaque or non-special URL: keep as written (scheme lowercased).
            var path = rest
            var query: String?
            if let (before, after) = split(path, atFirst: 0x3F) {   // ?
                query = encode(after, set: .query)
                path = before
            }
            if path.hasPrefix("//") {
                let authorityAndPath = path.dropFirst(2)
                let slash = authorityAndPath.firstIndex(of: "/") ?? authorityAndPath.endIndex
                return ResolvedURL(scheme: scheme, authority: String(authorityAndPath[..<slash]),
                                   path: encode(String(authorityAndPath[slash...]), set: .path), query: query, fragment: fragment)
            }
            return ResolvedURL(scheme: scheme, authority: nil, path: encode(path, set: .opaque), query: query, fragment: fragment)
        }
        guard let base else { return nil }
        return relative(s, base: base, fragment: fragment)
    }

    private static func relative(_ s: String, base: ResolvedURL, fragment: String?) -> ResolvedURL? {
        if base.authority == nil {
            // Opaque bases only take fragments.
            guard s.isEmpty else { return nil }
            var u = base
            u.fragment = fragment
            return u
        }
        let special = base.isSpecial
        if s.hasPrefix("//") || (special && (s.hasPrefix("\\\\") || s.hasPrefix("/\\") || s.hasPrefix("\\/"))) {
            return withAuthority(scheme: base.scheme, String(s.dropFirst(2)), fragment: fragment)
        }
        var u = base
        u.fragment = fragment
        var pathPart = s
        var query: String?
        if let (before, after) = split(s, atFirst: 0x3F) {   // ?
            query = encode(after, set: special ? .specialQuery : .query)
            pathPart = before
        }
        if pathPart.isEmpty {
            if query != nil { u.query = query }
            return u
        }
        u.query = query
        if special { pathPart = slashingBackslashes(pathPart) }
        if pathPart.hasPrefix("/") {
            u.path = normalizePath(pathPart)
        } else {
            let dir = base.path.lastIndex(of: "/").map { String(base.path[...$0]) } ?? "/"
            u.path = normalizePath(dir + pathPart)
        }
        return u
    }

    private static func withAuthority(scheme: String, _ s: String, fragment: String?) -> ResolvedURL? {
        let special = specialSchemes.contains(scheme)
        var rest = Substring(s)
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || (special && $0 == "\\") }) ?? rest.endIndex
        var authority = String(rest[..<end])
        rest = rest[end...]
        var userinfo = ""
        if let at = authority.lastIndex(of: "@") {
            userinfo = String(authority[...at])
            authority = String(authority[authority.index(after: at)...])
        }
        var host = authority
        var port = ""
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            if let n = Int(port) { port = String(n) }
            if defaultPorts[scheme] == port { port = "" }
        }
        host = host.lowercased()
        if special && scheme != "file" && host.isEmpty { return nil }
        if host.contains(where: { " <>^|%".contains($0) && $0 != "%" }) { return nil }
        var pathPart = String(rest)
        var query: String?
        if let (before, after) = split(pathPart, atFirst: 0x3F) {   // ?
            query = encode(after, set: special ? .specialQuery : .query)
            pathPart = before
        }
        if special { pathPart = slashingBackslashes(pathPart) }
        if pathPart.isEmpty && special { pathPart = "/" }
        if scheme == "file" { pathPart = normalizeDriveLetter(pathPart) }
        let authorityString = userinfo + host + (port.isEmpty ? "" : ":" + port)
        return ResolvedURL(scheme: scheme, authority: authorityString, path: normalizePath(pathPart), query: query, fragment: fragment)
    }

    /// file URLs: a Windows drive letter written "C|" becomes "C:".
    static func normalizeDriveLetter(_ path: String) -> String {
        let scalars = Array(path.unicodeScalars)
        guard scalars.count >= 3, scalars[0] == "/", scalars[1].isASCII, Character(scalars[1]).isLetter,
              scalars[2] == "|", scalars.count == 3 || scalars[3] == "/" else { return path }
        return "/" + String(scalars[1]) + ":" + String(String.UnicodeScalarView(scalars[3...]))
    }

    static func schemeOf(_ s: String) -> String? {
        guard let colon = s.utf8.firstIndex(of: 0x3A) else { return nil }
        let scheme = s[..<colon]
        guard let f = scheme.first, f.isASCII, f.isLetter else { return nil }
        for c in scheme where !(c.isASCII && (c.isLetter || c.isNumber || c == "+" || c == "-" || c == ".")) { return nil }
        return scheme.lowercased()
    }

    /// `s` cut at its first `byte` (an ASCII character, so the cut falls between scalars):
    /// what comes before it and after it; nil when `byte` does not occur.
    static func split(_ s: String, atFirst byte: UInt8) -> (before: String, after: String)? {
        guard let i = s.utf8.firstIndex(of: byte) else { return nil }
        return (String(s[..<i]), String(s[s.utf8.index(after: i)...]))
    }

    /// Every backslash turned into a slash (special URLs treat them alike).
    static func slashingBackslashes(_ s: String) -> String {
        s.utf8.contains(0x5C) ? s.replacingOccurrences(of: "\\", with: "/") : s
    }

    /// True when some segment of `path` is "." or ".." (also written with %2e).
    static func hasDotSegment(_ path: String) -> Bool {
        // A segment's first seven bytes (ASCII letters lowercased), packed little-endian.
        var packed: UInt64 = 0
        var length = 0
        for b in path.utf8 {
            if b == 0x2F {
                if isDotSegment(packed, length) { return true }
                packed = 0
                length = 0
            } else {
                if length < 7 { packed |= UInt64(b | (b >= 0x41 && b <= 0x5A ? 0x20 : 0)) << UInt64(8 * length) }
                length += 1
            }
        }
        return isDotSegment(packed, length)
    }

    /// ".", "%2e", "..", ".%2e", "%2e." or "%2e%2e", packed as `hasDotSegment` packs them.
    private static func isDotSegment(_ packed: UInt64, _ length: Int) -> Bool {
        switch (packed, length) {
        case (0x2E, 1), (0x65_32_25, 3), (0x2E_2E, 2), (0x65_32_25_2E, 4), (0x2E_65_32_25, 4), (0x65_32_25_65_32_25, 6):
            return true
        default:
            return false
        }
    }

    /// Removes "." and ".." segments (also their %2e forms) and percent-encodes.
    static func normalizePath(_ path: String) -> String {
        if path.isEmpty { return path }
        // Splitting on "/" and joining again changes nothing when no segment is a dot segment.
        if path.hasPrefix("/") && !hasDotSegment(path) { return encode(path, set: .path) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var out: [Substring] = []
        for (i, seg) in segments.enumerated() {
            let lower = seg.lowercased()
            let isLast = i == segments.count - 1
            if lower == "." || lower == "%2e" {
                if isLast { out.append("") }
            } else if lower == ".." || lower == ".%2e" || lower == "%2e." || lower == "%2e%2e" {
                if !out.isEmpty { out.removeLast() }
                if isLast { out.append("") }
            } else {
                out.append(seg)
            }
        }
        return encode("/" + out.joined(separator: "/"), set: .path)
    }

    enum EncodeSet { case opaque, fragment, query, specialQuery, path }

    /// Whether the ASCII byte `c` (or any non-ASCII byte) is percent-encoded in `set`.
    @inline(__always) static func escapes(_ c: UInt8, _ set: EncodeSet) -> Bool {
        if c < 0x20 || c > 0x7E { return true }
        switch set {
        case .opaque: return false
        case .fragment: return c == 0x20 || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60
        case .query: return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E
        case .specialQuery: return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x27
        case .path:
            return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x3F || c == 0x60 || c == 0x7B || c == 0x7D
        }
    }

    static func encode(_ s: String, set: EncodeSet) -> String {
        if !s.utf8.contains(where: { escapes($0, set) }) { return s }
        var out = ""
        for c in s.unicodeScalars {
            let v = c.value
            var escape = v < 0x20 || v > 0x7E
            if !escape {
                switch set {
                case .opaque: escape = false
                case .fragment: escape = c == " " || c == "\"" || c == "<" || c == ">" || c == "`"
                case .query: escape = c == " " || c == "\"" || c == "#" || c == "<" || c == ">"
                case .specialQuery: escape = c == " " || c == "\"" || c == "#" || c == "<" || c == ">" || c == "'"
                case .path:
                    escape = c == " " || c == "\"" || c == "#" || c == "<" || c == ">" || c == "?" || c == "`" || c == "{" || c == "}"
                }
            }
            if escape {
                for byte in String(c).utf8 { out += "%" + hex(byte) }
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
    }
}
