// Encoding autodetection, in the spirit of Firefox's chardetng: what a browser does when
// neither a BOM, nor the transport, nor a `<meta>` in the first 1024 bytes names the encoding.
//
//   1. No byte above 0x7F: ISO-2022-JP when its escape sequences are there, else nothing to
//      detect (the caller's default, windows-1252, decodes ASCII like anything else).
//   2. Valid UTF-8 with a non-ASCII byte: UTF-8. Legacy text is almost never valid UTF-8.
//   3. Otherwise every candidate legacy encoding is scored on the sample and the best wins.
//      Multi-byte encodings must fit their byte structure (a malformed sequence rules the
//      encoding out) and are scored by the region of their code space each character falls in
//      (kana, the frequent level-1 hanzi/kanji, Hangul syllables ... against rare, user-defined
//      and unmapped ones). Single-byte encodings are scored on the decoded letters: a letter the
//      languages written in that encoding use scores, a letter they don't use, a symbol inside a
//      word, a lowercase-to-uppercase change inside a word, a C1 control or an unmapped byte
//      costs (the signals that tell KOI8-R from windows-1251, or Polish from French).
//   4. The page's top-level domain or `lang` adds a little to the encodings of its script.
//
// The result is only ever tentative: a `<meta>` later in the page changes it (§ 13.2.3.4).

extension InputDecoder {
    /// How much of the page the detector looks at.
    public static let detectionLimit = 65536

    /// The legacy encodings the detector chooses among, in the order that breaks a tie.
    public static let detectableEncodings = [
        "windows-1252", "windows-1250", "iso-8859-2", "windows-1251", "koi8-r", "koi8-u", "iso-8859-5",
        "windows-1253", "iso-8859-7", "windows-1254", "windows-1257",
        "shift_jis", "euc-jp", "gbk", "big5", "euc-kr",
    ]

    /// The encoding the bytes are most likely in, or nil when they are all ASCII (and not
    /// ISO-2022-JP). `tld` is the page's top-level domain ("jp"), `language` its `lang`
    /// ("zh-TW"). `truncated` says the bytes are a prefix of the page (a character may be cut
    /// at the end).
    public static func detect(_ bytes: [UInt8], tld: String? = nil, language: String? = nil,
                              truncated: Bool = false) -> String? {
        let sample = bytes.count > detectionLimit ? Array(bytes.prefix(detectionLimit)) : bytes
        let cut = truncated || bytes.count > detectionLimit
        guard let firstHigh = sample.firstIndex(where: { $0 >= 0x80 }) else {
            return looksLikeISO2022JP(sample) ? "iso-2022-jp" : nil
        }
        if isValidUTF8Prefix(sample[firstHigh...], allowCut: cut) { return "utf-8" }
        let hinted = Set(encodingsHinted(tld: tld, language: language))
        let highCount = sample.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) }
        var best: (encoding: String, score: Double)? = nil
        for encoding in detectableEncodings {
            guard var score = DetectionScore.score(sample, as: encoding, allowCut: cut) else { continue }
            if hinted.contains(encoding) { score += 0.15 * Double(highCount) }
            if best == nil || score > best!.score { best = (encoding, score) }
        }
        return best?.encoding ?? "windows-1252"
    }

    static func looksLikeISO2022JP(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while let esc = bytes[i...].firstIndex(of: 0x1B), esc + 2 < bytes.count {
            let (a, b) = (bytes[esc + 1], bytes[esc + 2])
            if (a == 0x24 && (b == 0x40 || b == 0x42)) || (a == 0x28 && (b == 0x4A || b == 0x49)) { return true }
            i = esc + 1
        }
        return false
    }

    /// Valid UTF-8, except that a sequence cut by the end of a truncated sample is allowed.
    static func isValidUTF8Prefix(_ bytes: ArraySlice<UInt8>, allowCut: Bool) -> Bool {
        var body = Array(bytes)
        if allowCut { body.removeLast(body.count - decodablePrefix(body, as: "utf-8")) }
        return body.withUnsafeBufferPointer { buf in buf.baseAddress.map { isValidUTF8($0, buf.count) } ?? true }
    }

    /// The encodings a top-level domain or a language tag points to (the language wins).
    static func encodingsHinted(tld: String?, language: String?) -> [String] {
        if let language {
            let tag = language.lowercased()
            let primary = String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
            if primary == "zh" {
                return tag.contains("tw") || tag.contains("hk") || tag.contains("hant") ? ["big5"] : ["gbk"]
            }
            if let family = languageFamilies[primary] { return family }
        }
        return tld.flatMap { tldFamilies[$0.lowercased()] } ?? []
    }

    private static let cyrillic = ["windows-1251", "koi8-r", "koi8-u", "iso-8859-5"]
    private static let central = ["windows-1250", "iso-8859-2"]
    private static let languageFamilies: [String: [String]] = [
        "ru": cyrillic, "uk": cyrillic, "be": cyrillic, "bg": cyrillic, "sr": cyrillic, "mk": cyrillic, "kk": cyrillic,
        "pl": central, "cs": central, "sk": central, "hu": central, "sl": central, "hr": central, "ro": central,
        "el": ["windows-1253", "iso-8859-7"], "tr": ["windows-1254"],
        "lt": ["windows-1257"], "lv": ["windows-1257"], "et": ["windows-1257"],
        "ja": ["shift_jis", "euc-jp"], "ko": ["euc-kr"],
    ]
    private static let tldFamilies: [String: [String]] = [
        "ru": cyrillic, "ua": cyrillic, "by": cyrillic, "bg": cyrillic, "kz": cyrillic, "rs": cyrillic, "su": cyrillic,
        "pl": central, "cz": central, "sk": central, "hu": central, "si": central, "hr": central, "ro": central,
        "gr": ["windows-1253", "iso-8859-7"], "tr": ["windows-1254"],
        "lt": ["windows-1257"], "lv": ["windows-1257"], "ee": ["windows-1257"],
        "jp": ["shift_jis", "euc-jp"], "kr": ["euc-kr"], "tw": ["big5"], "hk": ["big5"], "mo": ["big5"],
        "cn": ["gbk"], "sg": ["gbk"],
    ]
}
