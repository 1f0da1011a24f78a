// Class-name and id vocabularies sites use for page furniture (in English even on pages in
// other languages). Names are split into lowercase word tokens ("post-share_buttons" →
// post, share, buttons), and a token matches a vocabulary word when it starts with it.
import HTML

enum Vocabulary {
    /// Furniture around the article: sharing, promotion, navigation, sign-up and site chrome.
    static let boilerplate = [
        "share", "sharing", "social", "related", "newsletter", "subscri", "signup", "promo",
        "advert", "sponsor", "breadcrumb", "cookie", "consent", "gdpr", "sidebar",
        "navbar", "menu", "pagination", "pager", "toolbar", "popup", "modal", "banner", "outbrain",
        "taboola", "recommend", "trending", "popular", "print", "disqus", "follow", "footer",
        "masthead", "skip", "visually", "screenreader", "tagcloud",
        "byline", "dateline", "timestamp", "author", "bio", "meta", "readmore", "more",
        "upsell", "paywall", "donate", "comment", "respond", "reply", "disclaimer", "legal", "signature", "popover", "userextra", "userdetail", "postprofile", "relativetime", "feedback", "notice", "controls", "offer",
    ]
    /// Exact tokens that are too short or too common to match as prefixes.
    static let boilerplateExact: Set<String> = ["ad", "ads", "nav", "cta", "tag", "tags", "date", "time", "rel", "jump", "toc", "sr"]
    /// In a thread, post headers (author, date, "reply") are part of each post.
    static let postHeader: Set<String> = ["byline", "dateline", "timestamp", "author", "bio", "meta", "comment", "respond", "reply", "date", "time"]
    static let threadBoilerplate = boilerplate.filter { !postHeader.contains($0) }
    static let threadBoilerplateExact = boilerplateExact.subtracting(postHeader)
    /// Captions, credits, picture legends and gallery labels: kept in the reader HTML, left out of the text.
    static let caption = ["caption", "credit", "figcaption", "photographer", "copyright", "attribution", "gallery", "legend"]
    /// Containers that name themselves the article body.
    static let content = ["articlebody", "article-body", "article-content", "articlecontent", "entry-content",
                          "post-content", "postcontent", "post-body", "postbody", "story-body", "storybody",
                          "entry-body", "content-body", "article-text", "articletext", "story-content",
                          "post-entry", "single-content", "page-content", "main-content", "td-post-content"]

    /// The class and id of `node` as lowercase word tokens (bytes; non-ASCII bytes count as
    /// letters). Utility-class names (Tailwind's `print:hidden`, `w-[64px]`,
    /// `decoration-primary/6`) say how a box looks, not what it is, and are skipped.
    static func tokens(_ node: Node) -> [ArraySlice<UInt8>] {
        let names = Names(node)
        return names.tokens.map { names.bytes[$0] }
    }

    /// A node's class and id, lowercased once, with their word tokens: what the vocabulary
    /// tests look at, computed once per node.
    struct Names {
        /// The class list, a space, the id; ASCII lowercased.
        let bytes: [UInt8]
        /// Ranges of `bytes` that are word tokens.
        let tokens: [Range<Int>]

        static let none = Names(bytes: [], tokens: [])

        private init(bytes: [UInt8], tokens: [Range<Int>]) {
            self.bytes = bytes
            self.tokens = tokens
        }

        init(_ node: Node) {
            self.init(className: node.className, id: node.id)
        }

        init(className: String, id: String) {
            if className.isEmpty && id.isEmpty {
                self.init(bytes: [], tokens: [])
                return
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(className.utf8.count + id.utf8.count + 1)
            for b in className.utf8 { bytes.append(b >= 65 && b <= 90 ? b + 32 : b) }
            bytes.append(0x20)
            for b in id.utf8 { bytes.append(b >= 65 && b <= 90 ? b + 32 : b) }
            var tokens: [Range<Int>] = []
            var nameStart = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] <= 0x20 {
                if i > nameStart { Names.appendTokens(of: bytes, nameStart..<i, to: &tokens) }
                nameStart = i + 1
            }
            self.init(bytes: bytes, tokens: tokens)
        }

        private static func appendTokens(of bytes: [UInt8], _ name: Range<Int>, to out: inout [Range<Int>]) {
            for j in name {
                let b = bytes[j]
                if b == 0x3A || b == 0x5B || b == 0x2F || b == 0x40 || b == 0x21 { return }
            }
            var start = name.lowerBound
            for j in name {
                let b = bytes[j]
                let wordByte = b >= 0x80 || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                if !wordByte {
                    if j > start { out.append(start..<j) }
                    start = j + 1
                }
            }
            if name.upperBound > start { out.append(start..<name.upperBound) }
        }

        var isEmpty: Bool { bytes.isEmpty }

        /// Whether a token starts with a prefix of `words` (or is one of its exact tokens).
        func matches(_ words: Words) -> Bool {
            if tokens.isEmpty { return false }
            return bytes.withUnsafeBufferPointer { b in
                for range in tokens {
                    let start = range.lowerBound, count = range.count
                    if count <= 4 {
                        for word in words.exactList where word.count == count && Names.equal(b, start, word, count) { return true }
                    }
                    for word in words.prefixes where word.count <= count && Names.equal(b, start, word, word.count) { return true }
                }
                return false
            }
        }

        /// Whether the `count` bytes of `b` from `start` are the first `count` of `word`.
        @inline(__always)
        private static func equal(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: [UInt8], _ count: Int) -> Bool {
            var k = 0
            while k < count, b[start + k] == word[k] { k += 1 }
            return k == count
        }

        /// Whether the whole class list or id holds one of the content names.
        func namesContent() -> Bool {
            if bytes.isEmpty { return false }
            guard Vocabulary.stems.contains(where: { Vocabulary.contains(bytes, $0) }) else { return false }
            return Vocabulary.contentBytes.contains { Vocabulary.contains(bytes, $0) }
        }
    }

    /// Whether any token of `node`'s class or id starts with a prefix of `words` (or is one of
    /// its exact tokens).
    static func matches(_ node: Node, _ words: Words) -> Bool {
        Names(node).matches(words)
    }

    /// Whether `node`'s whole class list or id holds one of the content names. Every name holds
    /// "body", "content", "text" or "entry"; most names hold none, and are passed over first.
    static func namesContent(_ node: Node) -> Bool {
        Names(node).namesContent()
    }

    fileprivate static let stems: [[UInt8]] = ["body", "content", "text", "entry"].map { Array($0.utf8) }
    fileprivate static let contentBytes: [[UInt8]] = content.map { Array($0.utf8) }

    /// Class names that hide a box everywhere ("hidden", "d-none", "is-hidden"); a list with
    /// responsive names ("hidden md:block") shows it somewhere, and is not hidden.
    static func namesHidden(_ node: Node) -> Bool { namesHidden(className: node.className) }

    /// `namesHidden` of a class list.
    static func namesHidden(className: String) -> Bool {
        var className = className
        // An ASCII class list (nearly all) is read as bytes: there lowercasing, splitting at
        // spaces and comparing Characters are the same as on bytes.
        let ascii: Bool? = className.withUTF8 { bytes in
            guard bytes.count >= 4 else { return nil }
            for b in bytes where b >= 0x80 || b == 0x3A { return b == 0x3A ? nil : false }
            return true
        }
        guard let ascii else { return false }
        if !ascii { return namesHiddenUnicode(className) }
        return className.withUTF8 { bytes in
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x20 {
                defer { start = i + 1 }
                let length = i - start
                guard length >= 6 else { continue }
                for name in hiddenNameBytes where name.count == length {
                    var k = 0
                    while k < length, asciiLowercased(bytes[start + k]) == name[k] { k += 1 }
                    if k == length { return true }
                }
            }
            return false
        }
    }

    /// `namesHidden` for a class list with non-ASCII characters, on Characters.
    static func namesHiddenUnicode(_ className: String) -> Bool {
        guard className.count >= 4, !className.contains(":") else { return false }
        for name in className.lowercased().split(separator: " ") {
            if hiddenNames.contains(String(name)) { return true }
        }
        return false
    }

    @inline(__always)
    static func asciiLowercased(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

    static let hiddenNames: Set<String> = ["hidden", "d-none", "is-hidden", "u-hidden", "invisible", "display-none", "visually-hidden", "sr-only", "screen-reader-text"]
    static let hiddenNameBytes: [[UInt8]] = hiddenNames.sorted().map { Array($0.utf8) }

    /// Words to match tokens against: prefixes, and exact tokens.
    struct Words {
        let prefixes: [[UInt8]]
        let exact: Set<[UInt8]>
        /// `exact` as a list, to compare a token with in place.
        let exactList: [[UInt8]]
        init(_ prefixes: [String], exact: Set<String> = []) {
            self.prefixes = prefixes.map { Array($0.utf8) }
            self.exact = Set(exact.map { Array($0.utf8) })
            self.exactList = self.exact.sorted { $0.lexicographicallyPrecedes($1) }
        }
    }

    static let boilerplateWords = Words(boilerplate, exact: boilerplateExact)
    static let threadBoilerplateWords = Words(threadBoilerplate, exact: threadBoilerplateExact)
    static let captionWords = Words(caption)

    /// Naive substring search over bytes (class lists are short).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
