// JavaScript string semantics Readability.js relies on: `\s` (which includes Unicode spaces),
// `trim()`, the `\s{2,}` normalisation, `split(/\s+/)` word counts and UTF-16 `length`.

enum JSString {
    /// JavaScript's `\s`: WhiteSpace plus LineTerminator.
    @inline(__always) static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
             0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// `String.prototype.trim()`.
    static func trim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        guard let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return s }
        return String(scalars[first...last])
    }

    /// `s.replace(/\s{2,}/g, " ")`: runs of two or more spaces become one space; a lone
    /// whitespace character is kept as it is.
    static func normalize(_ s: String) -> String {
        var needs = false
        var run = 0
        for c in s.unicodeScalars {
            if isSpace(c) { run += 1; if run >= 2 { needs = true; break } } else { run = 0 }
        }
        if !needs { return s }
        var out = String.UnicodeScalarView()
        var pending: Unicode.Scalar? = nil
        run = 0
        for c in s.unicodeScalars {
            if isSpace(c) {
                run += 1
                if run == 1 { pending = c }
                continue
            }
            if run == 1, let p = pending { out.append(p) } else if run >= 2 { out.append(" ") }
            run = 0
            out.append(c)
        }
        if run == 1, let p = pending { out.append(p) } else if run >= 2 { out.append(" ") }
        return String(out)
    }

    /// `getInnerText`: trim, then normalise when asked.
    static func innerText(_ s: String, normalizeSpaces: Bool = true) -> String {
        let t = trim(s)
        return normalizeSpaces ? normalize(t) : t
    }

    /// Whether `needle`'s UTF-8 bytes occur in `bytes`.
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, contain needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { n in
            guard let first = n.first else { return true }
            guard n.count <= bytes.count else { return false }
            var i = 0
            while i <= bytes.count - n.count {
                if bytes[i] == first {
                    var j = 1
                    while j < n.count && bytes[i + j] == n[j] { j += 1 }
                    if j == n.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// JavaScript `length` (UTF-16 code units).
    /// Counted over the UTF-8 bytes: `utf16.count` on non-ASCII text builds index breadcrumbs
    /// first, which costs far more than this one pass.
    static func length(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { bytes in
            var units = 0
            // Every byte that starts a scalar is one unit; a 4-byte scalar is a surrogate pair.
            for b in bytes where b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
            return units
        }
    }

    /// `str.split(/\s+/).length`: one more than the number of whitespace runs.
    static func wordCount(_ s: String) -> Int {
        var runs = 0
        var inRun = false
        for c in s.unicodeScalars {
            if isSpace(c) {
                if !inRun { runs += 1; inRun = true }
            } else {
                inRun = false
            }
        }
        return runs + 1
    }

    /// True when `s` is empty or whitespace only (`/^\s*$/`).
    static func isBlank(_ s: String) -> Bool { !s.unicodeScalars.contains { !isSpace($0) } }

    /// `/\S$/`: the last character is not whitespace.
    static func endsWithNonSpace(_ s: String) -> Bool {
        guard let last = s.unicodeScalars.last else { return false }
        return !isSpace(last)
    }

    /// `s.toLowerCase().split(/\W+/).filter(Boolean)`.
    static func tokenize(_ s: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        for c in s.lowercased().unicodeScalars {
            let v = c.value
            let word = (v >= 0x30 && v <= 0x39) || (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || v == 0x5F
            if word { current.append(c) } else if !current.isEmpty {
                tokens.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { tokens.append(String(current)) }
        return tokens
    }

    /// `s.replace(/\./g, ":")`: every full stop becomes a colon (over the UTF-8, where a full
    /// stop byte is always the character; most names hold none and come back as they are).
    static func dotsToColons(_ s: String) -> String {
        guard s.utf8.contains(0x2E) else { return s }
        return String(decoding: s.utf8.map { $0 == 0x2E ? 0x3A : $0 }, as: UTF8.self)
    }

    /// Removes every whitespace character (`replace(/\s/g, "")`).
    static func removingSpaces(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars where !isSpace(c) { out.append(c) }
        return String(out)
    }
}
