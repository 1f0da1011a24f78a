import HTML

/// URL checks for sanitized attributes. A URL is judged the way a browser would read it: ASCII
/// tab and newlines removed anywhere, leading and trailing controls and spaces trimmed, scheme
/// case-insensitive. For the check, every control character is removed too (stricter than a
/// browser, so `java\u{1}script:` is refused as well).
enum URLPolicy {
    static let linkSchemes: Set<String> = ["http", "https", "mailto"]
    static let mediaSchemes: Set<String> = ["http", "https"]

    /// `href` on links: http, https, mailto, or a relative URL.
    static func safeLink(_ raw: String) -> String? {
        let url = cleaned(raw)
        guard let scheme = scheme(of: url) else { return url }
        return linkSchemes.contains(scheme) ? url : nil
    }

    /// `src` on media: http, https, a relative URL, and for images `data:image/*` (not SVG).
    static func safeMedia(_ raw: String, allowDataImage: Bool) -> String? {
        let url = cleaned(raw)
        guard let scheme = scheme(of: url) else { return url }
        if mediaSchemes.contains(scheme) { return url }
        if allowDataImage && scheme == "data" && isRasterDataImage(url) { return url }
        return nil
    }

    /// `srcset`: every candidate URL must pass `safeMedia`, else the whole attribute goes.
    static func safeSrcset(_ raw: String) -> String? {
        var candidates: [String] = []
        for candidate in srcsetCandidates(raw) {
            guard let url = safeMedia(candidate.url, allowDataImage: true) else { return nil }
            candidates.append(candidate.descriptor.isEmpty ? url : "\(url) \(candidate.descriptor)")
        }
        return candidates.isEmpty ? nil : candidates.joined(separator: ", ")
    }

    /// Removes tab/LF/CR anywhere and trims C0 controls and spaces at both ends.
    static func cleaned(_ raw: String) -> String { URLInput.stripped(raw) }

    /// `cleaned` by the letter of the rule, scalar by scalar.
    static func cleanedByScalars(_ raw: String) -> String { URLInput.strippedByScalars(raw) }

    /// The lowercased scheme, or nil for a relative URL. Control characters and whitespace are
    /// ignored for this check.
    static func scheme(of url: String) -> String? {
        switch asciiScheme(of: url) {
        case .scheme(let scheme): return scheme
        case .relative: return nil
        case .undecided: return schemeByScalars(url)
        }
    }

    /// `scheme(of:)` by the letter of the rule, scalar by scalar.
    static func schemeByScalars(_ url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == " " { continue }
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            if scalar == "/" || scalar == "?" || scalar == "#" { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    private static func isRasterDataImage(_ url: String) -> Bool {
        let lower = url.lowercased().filter { !$0.isWhitespace }
        guard lower.hasPrefix("data:image/") else { return false }
        return !lower.hasPrefix("data:image/svg")
    }

    /// Splits a srcset into (url, descriptor) pairs (HTML § 4.8.4.3.10, simplified: URLs are
    /// runs of non-space characters; a trailing comma ends a candidate). An ASCII value (nearly
    /// every one) is split on its UTF-8 bytes; any other goes through
    /// `srcsetCandidatesByScalars`, which also judges Unicode whitespace (the tests hold the two
    /// equal on ASCII).
    static func srcsetCandidates(_ raw: String) -> [(url: String, descriptor: String)] {
        var raw = raw
        return raw.withUTF8 { bytes in
            for b in bytes where b >= 0x80 { return nil }
            return srcsetCandidates(ascii: bytes)
        } ?? srcsetCandidatesByScalars(raw)
    }

    /// `srcsetCandidates` on ASCII bytes: no Unicode property lookups, no per-character strings.
    static func srcsetCandidates(ascii b: UnsafeBufferPointer<UInt8>) -> [(url: String, descriptor: String)] {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
        }
        let comma = UInt8(ascii: ",")
        var result: [(String, String)] = []
        var i = 0
        let n = b.count
        while true {
            while i < n, isSpace(b[i]) || b[i] == comma { i += 1 }
            guard i < n else { break }
            let start = i
            while i < n, !isSpace(b[i]) { i += 1 }
            var end = i
            var descriptor = ""
            if b[end - 1] == comma {
                while end > start, b[end - 1] == comma { end -= 1 }
            } else {
                var depth = 0
                let from = i
                while i < n {
                    let c = b[i]
                    if c == UInt8(ascii: "(") { depth += 1 }
                    if c == UInt8(ascii: ")") { depth = max(0, depth - 1) }
                    if c == comma && depth == 0 { break }
                    i += 1
                }
                var lo = from, hi = i
                while lo < hi, isSpace(b[lo]) { lo += 1 }
                while hi > lo, isSpace(b[hi - 1]) { hi -= 1 }
                descriptor = text(lo, hi)
            }
            if end > start { result.append((text(start, end), descriptor)) }
        }
        return result
    }

    /// `srcsetCandidates` scalar by scalar, with Unicode whitespace.
    static func srcsetCandidatesByScalars(_ raw: String) -> [(url: String, descriptor: String)] {
        var result: [(String, String)] = []
        var scalars = Substring(raw).unicodeScalars[...]
        func skip(_ predicate: (Unicode.Scalar) -> Bool) {
            while let s = scalars.first, predicate(s) { scalars.removeFirst() }
        }
        while true {
            skip { $0.properties.isWhitespace || $0 == "," }
            guard !scalars.isEmpty else { break }
            var url = String.UnicodeScalarView()
            while let s = scalars.first, !s.properties.isWhitespace { url.append(s); scalars.removeFirst() }
            var text = String(url)
            var descriptor = ""
            if text.hasSuffix(",") {
                while text.hasSuffix(",") { text.removeLast() }
            } else {
                var depth = 0
                var chars = String.UnicodeScalarView()
                while let s = scalars.first {
                    if s == "(" { depth += 1 }
                    if s == ")" { depth = max(0, depth - 1) }
                    if s == "," && depth == 0 { break }
                    chars.append(s)
                    scalars.removeFirst()
                }
                descriptor = String(chars).trimmingWhitespace()
            }
            if !text.isEmpty { result.append((text, descriptor)) }
        }
        return result
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let f = view.first, f.isWhitespace { view.removeFirst() }
        while let l = view.last, l.isWhitespace { view.removeLast() }
        return String(view)
    }
}
