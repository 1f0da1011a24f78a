// The detector's score of one candidate encoding on a sample (see InputDecoding+Detect).
// Single-byte scores are per non-ASCII byte, multi-byte ones per character on a scale where a
// plausible two-byte character is worth two plausible single-byte letters.

enum DetectionScore {
    /// nil when the sample cannot be in `encoding` (a malformed multi-byte sequence).
    static func score(_ sample: [UInt8], as encoding: String, allowCut: Bool) -> Double? {
        if let table = InputDecoder.singleByteTable(encoding) {
            return singleByte(sample, table: table, languages: languages[encoding] ?? [])
        }
        return multibyte(sample, as: encoding, allowCut: allowCut)
    }

    // MARK: Single-byte

    /// A language's letters beyond ASCII (lowercase), or its script.
    enum Letters {
        case latin(Set<UInt32>)
        case script(ClosedRange<UInt32>, except: Set<UInt32>, extra: Set<UInt32>)

        func has(_ c: UInt32) -> Bool {
            switch self {
            case let .latin(set): return set.contains(c)
            case let .script(range, except, extra): return (range.contains(c) && !except.contains(c)) || extra.contains(c)
            }
        }
    }

    static func latin(_ s: String) -> Letters { .latin(Set(s.unicodeScalars.map(\.value))) }
    static func set(_ s: String) -> Set<UInt32> { Set(s.unicodeScalars.map(\.value)) }

    static let western = [latin("àâæçéèêëîïôœùûüÿ"), latin("äöüß"), latin("áéíóúñü"), latin("áâãàçéêíóôõú"),
                          latin("àèéìíîòóù"), latin("åäöæøé")]
    static let central = [latin("ąćęłńóśźż"), latin("áčďéěíňóřšťúůýž"), latin("áäčďéíĺľňóôŕšťúýž"),
                          latin("áéíóöőúüű"), latin("ăâîşţșț"), latin("čćđšž")]
    static let russian = Letters.script(0x430...0x44F, except: [], extra: set("ё"))
    static let cyrillic = [russian, .script(0x430...0x44F, except: set("ёъыэ"), extra: set("іїєґ")),
                           .script(0x430...0x44F, except: set("ёыэ"), extra: [])]
    static let greek = [Letters.script(0x3AC...0x3CE, except: [], extra: set("ΐΰ"))]
    static let languages: [String: [Letters]] = [
        "windows-1252": western, "windows-1250": central, "iso-8859-2": central,
        "windows-1251": cyrillic, "koi8-r": [russian], "koi8-u": cyrillic, "iso-8859-5": cyrillic,
        "windows-1253": greek, "iso-8859-7": greek, "windows-1254": [latin("çğıöşüâî")],
        "windows-1257": [latin("ąčęėįšųūž"), latin("āčēģīķļņšūž"), latin("äöõüšž")],
    ]

    /// Characters that sit inside words without being letters (apostrophe, middle dot, soft hyphen).
    static let inWordMarks: Set<UInt32> = [0x2019, 0xB7, 0xAD]
    /// Punctuation beyond ASCII that text uses between words: quotes, dashes, ellipsis, no-break space.
    static let typicalPunctuation: Set<UInt32> = [0x2018, 0x2019, 0x201C, 0x201D, 0x201E, 0x2013, 0x2014, 0x2026,
                                                  0xAB, 0xBB, 0xA0]

    /// What the scorer needs to know of a scalar, looked up once per byte value.
    struct ByteClass {
        var scalar: UInt32
        var letter: Bool
        var lower: Bool
        var upper: Bool
        var lowercased: UInt32

        init(_ c: UInt32) {
            scalar = c
            letter = DetectionScore.isLetter(c)
            lower = DetectionScore.isLower(c)
            upper = DetectionScore.isUpper(c)
            lowercased = DetectionScore.lowercase(c)
        }
    }

    static func singleByte(_ sample: [UInt8], table: [UInt32], languages: [Letters]) -> Double {
        guard !languages.isEmpty else { return -Double(sample.count) }
        let classes = (0...255).map { ByteClass($0 < 0x80 ? UInt32($0) : table[$0 - 0x80]) }
        // Per byte value and language: +1 a letter the language uses, -1 another Latin letter,
        // -3 a letter of another script.
        let weights: [[Double]] = languages.map { language in
            classes.map { k in
                guard k.scalar >= 0x80, k.letter else { return 0 }
                if language.has(k.lowercased) { return 1 }
                if case .latin = language, k.lowercased < 0x250 { return -1 }
                return -3
            }
        }
        var totals = [Double](repeating: 0, count: languages.count)
        var shared = 0.0
        let space = ByteClass(0x20)
        var prev = space
        for (i, b) in sample.enumerated() {
            let k = classes[Int(b)]
            defer { prev = k }
            guard b >= 0x80 else {
                if k.letter, prev.letter, prev.lower, k.upper, prev.scalar >= 0x80 { shared -= 2 }
                continue
            }
            let c = k.scalar
            if c == 0xFFFD || (0x80...0x9F).contains(c) { shared -= 5; continue }
            let next = i + 1 < sample.count ? classes[Int(sample[i + 1])] : space
            guard k.letter else {
                if prev.letter, next.letter {
                    // "it’s", "l’été": an apostrophe inside a word is typical; other symbols are not.
                    shared += inWordMarks.contains(c) ? 1 : -2
                } else if typicalPunctuation.contains(c) {
                    shared += 0.5
                }
                continue
            }
            if prev.letter, prev.lower, k.upper { shared -= 2 }
            // A Greek or Cyrillic letter next to an ASCII letter: a word in two scripts.
            if c >= 0x370, isASCIILetter(prev.scalar) || isASCIILetter(next.scalar) { shared -= 4 }
            for j in 0..<totals.count { totals[j] += weights[j][Int(b)] }
        }
        return shared + (totals.max() ?? 0)
    }

    static func isLetter(_ c: UInt32) -> Bool {
        guard let s = Unicode.Scalar(c) else { return false }
        return s.properties.isAlphabetic
    }
    static func isASCIILetter(_ c: UInt32) -> Bool { (c | 0x20) &- 0x61 < 26 }
    static func isLower(_ c: UInt32) -> Bool { Unicode.Scalar(c)?.properties.isLowercase ?? false }
    static func isUpper(_ c: UInt32) -> Bool { Unicode.Scalar(c)?.properties.isUppercase ?? false }
    static func lowercase(_ c: UInt32) -> UInt32 {
        guard let s = Unicode.Scalar(c), let l = s.properties.lowercaseMapping.unicodeScalars.first else { return c }
        return l.value
    }

    // MARK: Multi-byte

    static func multibyte(_ sample: [UInt8], as encoding: String, allowCut: Bool) -> Double? {
        var total = 0.0
        var lastWasWide = false, spaceAfterWide = false
        let ok: Bool = sample.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let (length, valid) = encoding == "euc-jp" ? eucJPLength(p, i) : InputDecoder.characterLength(p, i, encoding)
                if !valid {
                    if allowCut, p.count - i < 4 { return true }
                    return false
                }
                if length == 1 {
                    let b = p[i]
                    if b >= 0x80 { total -= 1 }  // half-width katakana, a lone 0x80
                    if b == 0x20 { spaceAfterWide = lastWasWide } else { spaceAfterWide = false }
                    lastWasWide = false
                } else {
                    total += region(p[i], p[i + 1], length, encoding)
                    // A character whose bytes sit between ASCII letters ("it’s" read as one
                    // character made of ’ and s) is a Latin word, not CJK text.
                    if i > 0, isASCIILetter(UInt32(p[i - 1])), isASCIILetter(UInt32(p[i + length - 1])) { total -= 4 }
                    if spaceAfterWide { total += encoding == "euc-kr" ? 1 : -1 }  // Korean spaces its words
                    lastWasWide = true
                    spaceAfterWide = false
                }
                i += length
            }
            return true
        }
        guard ok else { return nil }
        let decoded = InputDecoder.decode(sample, as: encoding)
        let replacements = String(decoding: decoded, as: UTF8.self).unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : 0) }
        return total - 6 * Double(replacements)
    }

    static func eucJPLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Int, Bool) {
        let b = p[i]
        if b < 0x80 { return (1, true) }
        func trail(_ k: Int) -> Bool { i + k < p.count && (0xA1...0xFE).contains(p[i + k]) }
        if b == 0x8E { return i + 1 < p.count && (0xA1...0xDF).contains(p[i + 1]) ? (2, true) : (1, false) }
        if b == 0x8F { return trail(1) && trail(2) ? (3, true) : (1, false) }
        return (0xA1...0xFE).contains(b) && trail(1) ? (2, true) : (1, false)
    }

    /// How plausible one multi-byte character is, by where it lies in the encoding's code space.
    static func region(_ lead: UInt8, _ trail: UInt8, _ length: Int, _ encoding: String) -> Double {
        switch encoding {
        case "shift_jis":
            switch lead {
            case 0x81: return 1
            case 0x82: return trail >= 0x9F ? 2.5 : 0.4
            case 0x83: return trail <= 0x96 ? 2 : 0
            case 0x88...0x97: return 2
            case 0x98: return trail <= 0x72 ? 2 : 0.4
            case 0x99...0x9F, 0xE0...0xEA: return 0.4
            case 0xF0...0xF9: return -6
            default: return -1
            }
        case "euc-jp":
            if lead == 0x8E { return -1 }
            if lead == 0x8F || length == 3 { return -2 }
            return jisRow(Int(lead) - 0xA0)
        case "euc-kr":
            if trail < 0xA1 || lead < 0xA1 { return 0.4 }  // the UHC extension: rarer syllables
            switch lead {
            case 0xA1, 0xA2: return 1
            case 0xA3: return 0.4
            case 0xA4: return 0.2
            case 0xB0...0xC8: return 2
            case 0xCA...0xFD: return -0.6
            case 0xC9, 0xFE: return -6
            default: return -2
            }
        case "big5":
            let code = Int(lead) << 8 | Int(trail)
            switch code {
            case 0xA140...0xA3FE: return lead == 0xA3 ? 0.4 : 1
            case 0xA440...0xC67E: return 2
            case 0xC6A1...0xC8FE: return -2
            case 0xC940...0xF9FE: return 0.4
            default: return -2
            }
        default:  // gbk, gb18030
            if length == 4 { return -2 }
            if trail < 0xA1 { return -0.6 }
            switch lead {
            case 0xA1, 0xA3: return 1
            case 0xA2: return 0.4
            case 0xA4, 0xA5: return -2
            case 0xA6...0xA9: return -1
            case 0xB0...0xD7: return 2
            case 0xD8...0xF7: return 0.4
            default: return -6
            }
        }
    }

    /// A row of JIS X 0208 (EUC-JP's two-byte characters).
    static func jisRow(_ row: Int) -> Double {
        switch row {
        case 1, 2: return 1
        case 3: return 0.4
        case 4: return 2.5
        case 5: return 2
        case 6...8: return -1
        case 16...47: return 2
        case 48...84: return 0.4
        default: return -2
        }
    }
}
