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

    /// `new URL(input, base).href`. What articles hold most is resolved without the full
    /// parse when no step of it would change the text (`FastPath`).
    static func resolve(_ raw: String, base: ResolvedURL) -> String? {
        var raw = raw
        switch raw.withUTF8({ fastPath(for: $0, against: base) }) {
        case .unchanged: return raw
        case .onOrigin: return base.scheme + "://" + (base.authority ?? "") + raw
        case .onScheme: return base.scheme + ":" + raw
        case .inDirectory(let skip):
            let directory = base.path.utf8.lastIndex(of: 0x2F).map { base.path[...$0] } ?? "/"
            let rest = skip == 0 ? Substring(raw) : raw[raw.utf8.index(raw.startIndex, offsetBy: skip)...]
            return base.scheme + "://" + (base.authority ?? "") + directory + rest
        case .none: return parse(raw, base: base)?.href
        }
    }

    /// How a reference resolves when the parser would only copy it: `unchanged` (an absolute
    /// http(s) URL already serialised, or an opaque one such as `data:` or `mailto:`),
    /// `onOrigin` ("/path?query#fragment"), `onScheme` ("//host/path"), or `inDirectory`
    /// ("page.html", "./page.html": the base's directory, then the reference less its first
    /// `skip` bytes). Each needs an http(s) base with a host; `none` takes the full parse.
    enum FastPath: Equatable { case unchanged, onOrigin, onScheme, inDirectory(skip: Int), none }

    static func fastPath(for b: UnsafeBufferPointer<UInt8>, against base: ResolvedURL) -> FastPath {
        if isCanonicalHTTP(b) { return .unchanged }
        guard let first = b.first else { return .none }
        if isOpaqueAsWritten(b) { return .unchanged }
        guard base.authority != nil, base.scheme == "http" || base.scheme == "https" else { return .none }
        if first == 0x2F {
            if b.count >= 2 && b[1] == 0x2F { return canonicalHostAndPath(b, from: 2) ? .onScheme : .none }
            return canonicalPath(b, from: 1) ? .onOrigin : .none
        }
        // A relative path: no scheme before it (a first colon that starts no scheme), and a
        // first segment of its own ("?q" and "#f" keep the base's path; "../" leaves it).
        guard first != 0x3F, first != 0x23, !startsWithScheme(b) else { return .none }
        let skip = b.count >= 2 && first == 0x2E && b[1] == 0x2F ? 2 : 0
        guard skip < b.count, b[skip] != 0x2F, b[skip] != 0x3F, b[skip] != 0x23 else { return .none }
        return canonicalPath(b, from: skip) ? .inDirectory(skip: skip) : .none
    }

    /// True for "http(s)://host/..." made of characters no step of the URL parser changes:
    /// lowercase host without port or userinfo, no dot segments, nothing to percent-encode.
    static func isCanonicalHTTP(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isCanonicalHTTP($0) }
    }

    static func isCanonicalHTTP(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // "http://" or "https://", lowercase as serialised.
        guard b.count >= 8, b[0] == 0x68, b[1] == 0x74, b[2] == 0x74, b[3] == 0x70 else { return false }
        var i = 4
        if b[i] == 0x73 { i += 1 }
        guard b[i] == 0x3A, b[i + 1] == 0x2F, i + 2 < b.count, b[i + 2] == 0x2F else { return false }
        return canonicalHostAndPath(b, from: i + 3)
    }

    /// Whether `b` starts with what `schemeOf` takes for a scheme: a letter, then letters,
    /// digits, '+', '-' or '.', up to the first colon before any '#'.
    static func startsWithScheme(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = b.first, isLetter(first) else { return false }
        for c in b.dropFirst() {
            if c == 0x3A { return true }
            if !(isLetter(c) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E) {
                // Not a scheme character: the colon, if any, comes too late to make one.
                return false
            }
        }
        return false
    }

    @inline(__always) private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// An opaque URL the parser copies as written: a lowercase scheme that is not special,
    /// no "//" after it, and only printable ASCII that neither the opaque path, the query nor
    /// the fragment escapes (no space, '"', '<', '>', '`').
    static func isOpaqueAsWritten(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = b.first, first >= 0x61, first <= 0x7A else { return false }
        var colon = -1
        for (i, c) in b.enumerated() {
            if c == 0x3A { colon = i; break }
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E
            if !ok { return false }
        }
        guard colon > 0 else { return false }
        switch colon {
        case 2: if b[0] == 0x77 && b[1] == 0x73 { return false }   // ws
        case 3: if (b[0] == 0x77 && b[1] == 0x73 && b[2] == 0x73) || (b[0] == 0x66 && b[1] == 0x74 && b[2] == 0x70) { return false }   // wss, ftp
        case 4: if (b[0] == 0x68 && b[1] == 0x74 && b[2] == 0x74 && b[3] == 0x70) || (b[0] == 0x66 && b[1] == 0x69 && b[2] == 0x6C && b[3] == 0x65) { return false }   // http, file
        case 5: if b[0] == 0x68 && b[1] == 0x74 && b[2] == 0x74 && b[3] == 0x70 && b[4] == 0x73 { return false }   // https
        default: break
        }
        if colon + 2 < b.count && b[colon + 1] == 0x2F && b[colon + 2] == 0x2F { return false }
        for c in b[(colon + 1)...] {
            if c <= 0x20 || c >= 0x7F || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60 { return false }
        }
        return true
    }

    /// From `start`: a lowercase host (letters, digits, '-', '.', not starting or ending with
    /// a dot) with no port or userinfo, then a '/' and what `canonicalPath` accepts.
    static func canonicalHostAndPath(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        while i < b.count, b[i] != 0x2F {
            let c = b[i]
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
            if !ok { return false }
            i += 1
        }
        guard i > start, i < b.count, b[start] != 0x2E, b[i - 1] != 0x2E else { return false }
        return canonicalPath(b, from: i + 1)
    }

    /// From `start` (the first byte of a path segment): the rest of a path, then a query and a
    /// fragment, made only of printable ASCII that no encode set escapes, with no dot segment
    /// ("." or "..", also written with %2e).
    static func canonicalPath(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var packed: UInt64 = 0
        var length = 0
        var inPath = true
        var i = start
        while i <= b.count {
            let c: UInt8 = i < b.count ? b[i] : 0x2F
            if c <= 0x20 || c >= 0x7F { return false }
            switch c {
            case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, 0x27: return false  // " < > \ ^ ` { | } '
            default: break
            }
            if inPath {
                if c == 0x2F || c == 0x3F || c == 0x23 || i == b.count {
                    if isDotSegment(packed, length) { return false }
                    packed = 0
                    length = 0
                    if c == 0x3F || c == 0x23 { inPath = false }
                } else {
                    if length < 7 { packed |= UInt64(c | (c >= 0x41 && c <= 0x5A ? 0x20 : 0)) << UInt64(8 * length) }
                    length += 1
                }
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
    static func isDotSegment(_ packed: UInt64, _ length: Int) -> Bool {
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
